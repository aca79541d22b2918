import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningAppServer, appServerConfig, startAppServer } from '@bosun/app-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './io.ts';

let dataDir: string;
let server: RunningAppServer;
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'bosun-api-key-'));
  // The sandboxes' user must reach <data_dir>/sandboxes.
  await chmod(dataDir, 0o711);
  server = await startAppServer(appServerConfig({ port: 0, log_level: 'silent', data_dir: dataDir }));
});
afterAll(async () => {
  await server.close();
  await rm(dataDir, { recursive: true, force: true });
});

const me = (key: string) => fetch(`${server.url}/api/v1/users/me`, { headers: { authorization: `Bearer ${key}` } });

describe('bosun api-key create', () => {
  it('prints a key of the owner and nothing else, while the server runs', async () => {
    const first = await runCli(['api-key', 'create', '--data-dir', dataDir, '--name', 'ci']);
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(first.stdout).toMatch(/^sk-bosun-[A-Za-z0-9_-]+\n$/);
    const key = first.stdout.trim();
    const answer = await me(key);
    expect(answer.status).toBe(200);
    const owner = (await answer.json()) as { id: string };

    const second = await runCli(['api-key', 'create', `--data-dir=${dataDir}`]);
    expect(second.code).toBe(0);
    const other = second.stdout.trim();
    expect(other).not.toBe(key);
    expect(((await (await me(other)).json()) as { id: string }).id).toBe(owner.id);

    const keys = await fetch(`${server.url}/api/v1/keys`, { headers: { authorization: `Bearer ${key}` } });
    const names = ((await keys.json()) as { name: string }[]).map((listed) => listed.name);
    expect(names).toEqual(['ci', 'bosun api-key create']);
  });

  it('makes a key that expires after --expires-in days', async () => {
    const made = await runCli(['api-key', 'create', '--data-dir', dataDir, '--expires-in', '2']);
    expect(made.code).toBe(0);
    const key = made.stdout.trim();
    const keys = (await (
      await fetch(`${server.url}/api/v1/keys`, { headers: { authorization: `Bearer ${key}` } })
    ).json()) as { prefix: string; expires_at: string | null }[];
    const mine = keys.find((listed) => key.startsWith(listed.prefix) && listed.expires_at !== null);
    const days = (Date.parse(mine?.expires_at ?? '') - Date.now()) / (24 * 60 * 60_000);
    expect(days).toBeGreaterThan(1.99);
    expect(days).toBeLessThanOrEqual(2);
  });

  it('refuses bad arguments with status 2 and prints no key', async () => {
    for (const args of [
      ['api-key'],
      ['api-key', 'revoke'],
      ['api-key', 'create', '--data-dir'],
      ['api-key', 'create', '--data-dir', dataDir, '--expires-in', 'soon'],
      ['api-key', 'create', '--data-dir', dataDir, '--expires-in', '-1'],
      ['api-key', 'create', '--data-dir', dataDir, '--colour', 'red'],
    ]) {
      const refused = await runCli(args);
      expect(refused.code, args.join(' ')).toBe(2);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toMatch(/^bosun api-key: /);
    }
  });

  it('says why a database cannot be opened, with status 1', async () => {
    const refused = await runCli([
      'api-key',
      'create',
      '--data-dir',
      dataDir,
      '--database-url',
      'postgres://postgres:hunter2@127.0.0.1:1/nowhere',
    ]);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).not.toContain('hunter2');
  });
});
