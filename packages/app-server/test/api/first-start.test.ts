import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { appServerConfig, startAppServer } from '../../src/index.ts';

const dataDir = await mkdtemp(join(tmpdir(), 'bosun-first-start-'));
// The sandboxes' user must reach <data_dir>/sandboxes.
await chmod(dataDir, 0o711);
afterAll(() => rm(dataDir, { recursive: true, force: true }));

const start = () => startAppServer(appServerConfig({ port: 0, log_level: 'silent', data_dir: dataDir }));

it('on the first start only, makes the owner and prints a one-time sign-in URL that signs them in', async () => {
  const first = await start();
  let signInUrl: string | undefined;
  try {
    signInUrl = first.signInUrl;
    expect(signInUrl).toMatch(new RegExp(`^${first.url}/api/v1/auth/sign-in\\?token=\\S+$`));
    const opened = await fetch(signInUrl as string, { redirect: 'manual' });
    expect(opened.status).toBe(303);
    const cookie = (opened.headers.get('set-cookie') ?? '').split(';')[0] as string;
    const me = await fetch(`${first.url}/api/v1/users/me`, { headers: { cookie } });
    expect(me.status).toBe(200);
    const settings = await fetch(`${first.url}/api/v1/settings`, { headers: { cookie } });
    expect(settings.status).toBe(200);
  } finally {
    await first.close();
  }
  const second = await start();
  try {
    expect(second.signInUrl).toBeUndefined();
    const reused = await fetch(
      `${second.url}${new URL(signInUrl as string).pathname}${new URL(signInUrl as string).search}`,
      {
        redirect: 'manual',
      },
    );
    expect(reused.status).toBe(401);
  } finally {
    await second.close();
  }
});
