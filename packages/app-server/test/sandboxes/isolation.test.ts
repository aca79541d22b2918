import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { INSTALLATION, SANDBOX_COMMAND } from '../../../../test/support/sandbox-bundle.ts';
import { type RunningAppServer, appServerConfig, startAppServer } from '../../src/index.ts';
import { sessionKeyHash } from '../../src/sandboxes/index.ts';
import { REDIS_URL } from '../cache/redis-support.ts';
import { describeEachDatabase } from '../support/databases.ts';
import { until } from '../support/until.ts';
import { agentStatus, connectProbe, shell } from './sandbox-shell.ts';

/** Set in this process's environment, as an operator would for the app: never in a sandbox. */
const JWT_SECRET = `app-jwt-secret-${randomUUID()}`;

/**
 * The whole app server as `bosun serve` runs it, its sandboxes under bubblewrap (the default), each probed from
 * inside through its own agent server: the app's data directory (inside the Bosun installation the sandboxes see,
 * so only hiding it keeps it out), its environment, the file system, the network, the key's life and a crash.
 */
describeEachDatabase('sandboxes of the app under bubblewrap', (each) => {
  let dataDir: string;
  /** The configuration file `bosun serve --config` read: beside the data directory, hidden as well. */
  let configFile: string;
  let running: RunningAppServer;
  let headers: Record<string, string>;
  // biome-ignore lint/suspicious/noExplicitAny: wire JSON read loosely.
  let sandbox: any;
  const call = async (path: string, method = 'GET') => {
    const response = await fetch(`${running.url}${path}`, { method, headers });
    // biome-ignore lint/suspicious/noExplicitAny: wire JSON read loosely.
    return { status: response.status, body: (await response.json()) as any };
  };
  const current = async () => (await call(`/api/v1/sandboxes?id=${sandbox.id}`)).body[0];

  beforeAll(async () => {
    process.env.BOSUN_JWT_SECRET = JWT_SECRET;
    dataDir = await mkdtemp(join(INSTALLATION, '.test-app-data-'));
    await chmod(dataDir, 0o711);
    configFile = `${dataDir}-config.yaml`;
    await writeFile(configFile, `jwt_secret: ${JWT_SECRET}\n`, { mode: 0o600 });
    const target = await each.target();
    const external = each.dialect === 'postgres' ? { database_url: target.url as string, redis_url: REDIS_URL } : {};
    running = await startAppServer(
      appServerConfig({
        port: 0,
        log_level: 'silent',
        data_dir: dataDir,
        sandbox_command: SANDBOX_COMMAND,
        ...external,
      }),
      { configFile },
    );
    const services = running.server.context.services;
    if (!services) throw new Error('the server has no services');
    const user = await services.repositories.users.create({ email: `${randomUUID()}@example.test` });
    const { key } = await services.repositories.apiKeys.create({ userId: user.id, name: 'test' });
    headers = { authorization: `Bearer ${key}` };
    sandbox = (await call('/api/v1/sandboxes', 'POST')).body;
  }, 120_000);

  afterAll(async () => {
    await running?.close();
    delete process.env.BOSUN_JWT_SECRET;
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    if (configFile) await rm(configFile, { force: true });
  }, 180_000);

  it('runs isolated, and /ready says so', async () => {
    expect(sandbox).toMatchObject({ status: 'RUNNING', status_detail: null });
    const ready = await fetch(`${running.url}/ready`);
    expect(await ready.json()).toMatchObject({
      status: 'ready',
      checks: { sandboxes: 'ok' },
      sandboxes: { backend: 'local', isolated: true },
    });
  });

  it("cannot read the app's data directory (its database, its secrets key) nor its configuration file", async () => {
    const secretsKey = join(dataDir, 'secrets.key');
    expect(existsSync(secretsKey)).toBe(true);
    const result = await shell(
      sandbox,
      `ls ${INSTALLATION}package.json; cat ${secretsKey}; ls -A ${dataDir}; cat ${configFile}`,
    );
    expect(result.stdout).not.toContain(JWT_SECRET);
    expect(result.stdout).toContain('package.json');
    expect(result.stdout).not.toContain((await readFile(secretsKey, 'utf8')).trim());
    expect(result.stdout).not.toContain('sandboxes');
    expect(result.stdout + result.stderr).toContain('No such file');
  });

  it("sees none of the app's environment", async () => {
    const result = await shell(sandbox, 'env; cat /proc/1/environ | tr "\\0" "\\n"');
    expect(result.stdout).toContain('BOSUN_SESSION_API_KEYS');
    expect(result.stdout).not.toContain(JWT_SECRET);
    expect(result.stdout).not.toContain('BOSUN_JWT_SECRET');
  });

  it('writes only in its workspace', async () => {
    const targets = ['/usr/x', '/etc/x', `${INSTALLATION}x`, `${dataDir}/x`, '/x'];
    const result = await shell(
      sandbox,
      `echo ok > /workspace/mine.txt && cat /workspace/mine.txt; for p in ${targets.join(' ')}; do touch $p 2>/dev/null && echo "WROTE $p"; done; echo done`,
    );
    expect(result.stdout).toContain('ok');
    expect(result.stdout).not.toContain('WROTE');
    expect(result.stdout).toContain('done');
    for (const path of targets.slice(2)) expect(existsSync(path)).toBe(false);
  });

  it('reaches the app (its webhooks) and nothing else of this machine', async () => {
    const app = new URL(running.url);
    expect((await shell(sandbox, connectProbe('127.0.0.1', Number(app.port)))).stdout).toContain('CONNECTED');
    for (const port of [5432, 6379]) {
      expect((await shell(sandbox, connectProbe('127.0.0.1', port))).stdout).toContain('REFUSED');
    }
  });

  it('keeps its workspace over pause and resume, with a new key (the old one refused), its hash alone stored', async () => {
    const services = running.server.context.services;
    const oldKey: string = sandbox.session_api_key;
    const row = await services?.repositories.sandboxes.get(sandbox.created_by_user_id, sandbox.id);
    expect(row?.session_api_key_hash).toBe(sessionKeyHash(oldKey));
    expect(JSON.stringify(row)).not.toContain(oldKey);
    await shell(sandbox, 'echo kept > /workspace/kept.txt');
    expect(await call(`/api/v1/sandboxes/${sandbox.id}/pause`, 'POST')).toMatchObject({ status: 200 });
    expect(await current()).toMatchObject({ status: 'PAUSED', session_api_key: null });
    expect(await call(`/api/v1/sandboxes/${sandbox.id}/resume`, 'POST')).toMatchObject({ status: 200 });
    sandbox = await current();
    expect(sandbox.status).toBe('RUNNING');
    expect(sandbox.session_api_key).not.toBe(oldKey);
    expect(await agentStatus(sandbox, oldKey)).toBe(401);
    expect((await shell(sandbox, 'cat /workspace/kept.txt')).stdout).toContain('kept');
    if (each.dialect === 'sqlite') {
      const files = (await readdir(dataDir)).filter((name) => name.startsWith('app.db'));
      const bytes = Buffer.concat(await Promise.all(files.map((name) => readFile(join(dataDir, name)))));
      expect(bytes.includes(sessionKeyHash(sandbox.session_api_key))).toBe(true);
      for (const key of [oldKey, sandbox.session_api_key]) expect(bytes.includes(key)).toBe(false);
    }
  });

  it('is ERROR with why when its processes are killed, and the app answers on', async () => {
    // Every process of the sandbox (its agent server too): the call never gets its answer.
    await shell(sandbox, 'kill -9 -1').catch(() => undefined);
    const failed = await until(current, (found) => found.status === 'ERROR', 'ERROR', 30_000);
    expect(failed.status_detail).toMatch(/its agent server (was killed by SIGKILL|exited with code)/);
    expect(failed).toMatchObject({ session_api_key: null, exposed_urls: null });
    expect((await fetch(`${running.url}/alive`)).status).toBe(200);
    expect((await call('/api/v1/sandboxes/search')).status).toBe(200);
  });
});
