import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningAppServer, appServerConfig, startAppServer } from '@bosun/app-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './io.ts';

let dataDir: string;
let server: RunningAppServer;
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'bosun-sign-in-link-'));
  await chmod(dataDir, 0o711);
  server = await startAppServer(appServerConfig({ port: 0, log_level: 'silent', data_dir: dataDir }));
});
afterAll(async () => {
  await server.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** Follows a sign-in link by hand: its session cookie, if it signed in. */
async function signIn(link: string): Promise<{ status: number; cookie: string | null; location: string | null }> {
  const answer = await fetch(link, { redirect: 'manual' });
  return { status: answer.status, cookie: answer.headers.get('set-cookie'), location: answer.headers.get('location') };
}

describe('bosun sign-in-link', () => {
  it('prints a fresh one-time link of the owner, and nothing else, that signs in once while the server runs', async () => {
    const made = await runCli(['sign-in-link', '--data-dir', dataDir, '--url', server.url]);
    expect(made).toMatchObject({ code: 0, stderr: '' });
    expect(made.stdout).toMatch(new RegExp(`^${server.url}/api/v1/auth/sign-in\\?token=[^\\s]+\\n$`));
    const link = made.stdout.trim();

    const first = await signIn(link);
    expect(first.status).toBe(303);
    expect(first.location).toBe('/');
    const cookie = (first.cookie ?? '').split(';')[0] ?? '';
    const me = await fetch(`${server.url}/api/v1/users/me`, { headers: { cookie } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { id: string }).id).toBeTruthy();

    expect((await signIn(link)).status).toBe(401);
    const again = await runCli(['sign-in-link', `--data-dir=${dataDir}`, `--url=${server.url}`]);
    expect(again.stdout.trim()).not.toBe(link);
    expect((await signIn(again.stdout.trim())).status).toBe(303);
  });

  it('refuses bad arguments with status 2 and prints no link', async () => {
    for (const args of [
      ['sign-in-link', '--nope'],
      ['sign-in-link', '--url'],
      ['sign-in-link', '--url', 'ftp://x'],
    ]) {
      const refused = await runCli(args);
      expect(refused.code, args.join(' ')).toBe(2);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toMatch(/^bosun sign-in-link: /);
    }
  });
});
