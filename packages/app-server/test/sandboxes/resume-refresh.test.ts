import { randomUUID } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { INSTALLATION, SANDBOX_COMMAND } from '../../../../test/support/sandbox-bundle.ts';
import { type RunningAppServer, appServerConfig, startAppServer } from '../../src/index.ts';
import { REDIS_URL } from '../cache/redis-support.ts';
import { describeEachDatabase } from '../support/databases.ts';
import { type SandboxWire, connectProbe, shell } from './sandbox-shell.ts';

const JWT_SECRET = `resume-jwt-secret-${randomUUID()}`;

/**
 * The README's case: a sandbox paused while the app stops, resumed once the app runs again on another port. The
 * resume gives it the app's launch environment and network as they are now (where to post webhooks: the new URL;
 * its allow-list: the new port), as a start would, not those of its start.
 */
describeEachDatabase('a sandbox resumed after the app moved', (each) => {
  let dataDir: string;
  let first: RunningAppServer | undefined;
  let second: RunningAppServer | undefined;
  let headers: Record<string, string>;
  // One database for both runs of the app (each target is a new one).
  let target: Awaited<ReturnType<typeof each.target>>;

  const start = async () => {
    const external = each.dialect === 'postgres' ? { database_url: target.url as string, redis_url: REDIS_URL } : {};
    const config = { port: 0, log_level: 'silent' as const, data_dir: dataDir, jwt_secret: JWT_SECRET };
    return startAppServer(appServerConfig({ ...config, sandbox_command: SANDBOX_COMMAND, ...external }));
  };
  const call = async (app: RunningAppServer, path: string, method = 'GET') => {
    const response = await fetch(`${app.url}${path}`, { method, headers });
    // biome-ignore lint/suspicious/noExplicitAny: wire JSON read loosely.
    return { status: response.status, body: (await response.json()) as any };
  };
  /** The webhook URL its agent server was started with (its bash session is not given BOSUN_* variables). */
  const webhookOf = async (sandbox: SandboxWire) =>
    (
      await shell(
        sandbox,
        "cat /proc/[0-9]*/environ 2>/dev/null | tr '\\0' '\\n' | grep ^BOSUN_WEBHOOK_BASE_URL= | sort -u",
      )
    ).stdout.trim();
  const portOf = (app: RunningAppServer) => Number(new URL(app.url).port);

  beforeAll(async () => {
    target = await each.target();
    dataDir = await mkdtemp(join(INSTALLATION, '.test-resume-data-'));
    await chmod(dataDir, 0o711);
  });

  afterAll(async () => {
    await second?.close();
    await first?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  }, 180_000);

  it('POST /resume gives it the webhook URL and the allow-list of the app as it runs now', async () => {
    first = await start();
    const services = first.server.context.services;
    if (!services) throw new Error('the server has no services');
    const user = await services.repositories.users.create({ email: `${randomUUID()}@example.test` });
    const { key } = await services.repositories.apiKeys.create({ userId: user.id, name: 'test' });
    headers = { authorization: `Bearer ${key}` };
    const started = (await call(first, '/api/v1/sandboxes', 'POST')).body;
    expect(started).toMatchObject({ status: 'RUNNING' });
    expect(await webhookOf(started)).toBe(`BOSUN_WEBHOOK_BASE_URL=${first.url}/api/v1/webhooks`);
    expect((await shell(started, connectProbe('127.0.0.1', portOf(first)))).stdout).toContain('CONNECTED');

    // The app stops (its embedded runtime's sandboxes are paused) and comes back elsewhere.
    const oldUrl = first.url;
    await first.close();
    first = undefined;
    second = await start();
    expect(second.url).not.toBe(oldUrl);

    const resumed = await call(second, `/api/v1/sandboxes/${started.id}/resume`, 'POST');
    expect(resumed).toEqual({ status: 200, body: { success: true } });
    const now = (await call(second, `/api/v1/sandboxes?id=${started.id}`)).body[0];
    expect(now).toMatchObject({ status: 'RUNNING' });
    expect(await webhookOf(now)).toBe(`BOSUN_WEBHOOK_BASE_URL=${second.url}/api/v1/webhooks`);
    expect((await shell(now, connectProbe('127.0.0.1', portOf(second)))).stdout).toContain('CONNECTED');
  }, 180_000);
});
