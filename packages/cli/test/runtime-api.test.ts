import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RuntimeApiConfig } from '@bosun/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runtimeApiCaller } from '../../runtime/test/support/runtime-api-caller.ts';
import { runCli } from './io.ts';
import { scratchDir } from './scratch.ts';
import { type Started, killServers, startServer, stopServer } from './server-process.ts';

/** `bosun runtime-api`: its settings, and the command as a real process serving real sandboxes. */

const CLI = fileURLToPath(new URL('../bin/bosun.js', import.meta.url));
const KEY = 'runtime-api-cli-test-key-0123456789';
const OLD_KEY = 'runtime-api-cli-test-old-key-0123';
const OLDER_KEY = 'runtime-api-cli-test-older-key-01';
const start = (args: string[], env: Record<string, string>) =>
  startServer(CLI, ['runtime-api', ...args], env, /Sandboxes isolated|NOT isolated/);

// Sandboxes run as another user, who must traverse to their workspaces.
const scratch = scratchDir('bosun-runtime-api-cli-', { mode: 0o711 });
afterAll(() => killServers());

describe('bosun runtime-api settings', () => {
  it('lists every setting, the API key with no flag (one key: the app calls it runtime_api_key too)', async () => {
    const { code, stdout } = await runCli(['runtime-api', '--help']);
    expect(code).toBe(0);
    for (const key of Object.keys(RuntimeApiConfig.properties)) expect(stdout).toContain(` ${key}:`);
    expect(stdout).toContain('BOSUN_RUNTIME_API_KEY');
    expect(stdout).not.toContain('--runtime-api-key ');
    expect(stdout).toContain('--[no-]unsafe-no-isolation');
    expect((await runCli(['--help'])).stdout).toMatch(/\n {2}runtime-api\s+Start the runtime API/);
  });

  it('refuses a bad value at start, naming the key and where it came from', async () => {
    const config = await scratch.write('bad.yaml', 'sandbox_network: sideways\n');
    process.env.BOSUN_IDLE_SECONDS = '-5';
    const bad = await runCli(['runtime-api', '--port', 'nope', '--config', config]).finally(() => {
      delete process.env.BOSUN_IDLE_SECONDS;
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--port: must be an integer from 0 to 65535, got 'nope'");
    expect(bad.stderr).toContain('BOSUN_IDLE_SECONDS: must be an integer from 0 to 31536000');
    expect(bad.stderr).toContain(`${config}: sandbox_network: must be one of none, allow, open`);
  });

  it('refuses to start without its API key, saying where to give it', async () => {
    expect(process.env.BOSUN_RUNTIME_API_KEY).toBeUndefined();
    const missing = await runCli(['runtime-api', '--port', '0', '--data-dir', join(scratch.dir, 'no-key')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('runtime_api_key: required, in BOSUN_RUNTIME_API_KEY');
  });
});

describe('bosun runtime-api', () => {
  let server: Started;
  let base: string;
  const dataDir = () => join(scratch.dir, 'data');
  const call = runtimeApiCaller(() => base, KEY);
  const startIt = async () => {
    const config = await scratch.write(
      'runtime.yaml',
      ['port: 0', `data_dir: ${dataDir()}`, 'sandbox_memory_mb: 1024', 'log_level: warn'].join('\n'),
    );
    server = await start(['--config', config, '--idle-seconds', '600'], {
      BOSUN_RUNTIME_API_KEY: KEY,
      BOSUN_RUNTIME_API_KEY_PREVIOUS: `${OLD_KEY},${OLDER_KEY}`,
    });
    if (!('url' in server)) throw new Error(`runtime-api did not start: ${server.output}`);
    base = server.url;
  };

  beforeAll(startIt, 60_000);

  it('answers /health without a key, saying what it enforces, and nothing else without the key', async () => {
    const health = await call('GET', '/health', undefined, null);
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ status: 'ok', backend: 'local', isolated: true, running: 0 });
    expect(JSON.stringify(health.body.enforced)).toContain('memory');
    expect((await call('POST', '/start', { session_id: 'cli-1' }, null)).status).toBe(401);
    expect((await call('GET', '/list', undefined, 'wrong-key-0123456789')).status).toBe(401);
    // A rotation: the older keys are taken too until they are taken off the list.
    for (const key of [OLD_KEY, OLDER_KEY]) expect((await call('GET', '/list', undefined, key)).status).toBe(200);
    // No warm pool configured: none answered (the app then starts every sandbox cold).
    expect((await call('GET', '/api/warm-runtime-configs')).body).toEqual({ configs: [] });
  });

  it('starts a sandbox with the key, whose agent server answers with its session key', async () => {
    const started = await call('POST', '/start', { session_id: 'cli-1' });
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({ session_id: 'cli-1', status: 'running' });
    const [url, sessionKey] = [String(started.body.url), String(started.body.session_api_key)];
    const tools = await fetch(`${url}/api/tools/`, { headers: { 'X-Session-API-Key': sessionKey } });
    expect(tools.status).toBe(200);
    expect((await call('GET', '/list')).body).toMatchObject({ total: 1 });
    expect(JSON.stringify((await call('GET', '/sessions/cli-1')).body.isolation)).toContain('memory: 1024 MiB');
    // Its records (sealed specs) are the service's alone.
    expect((await stat(join(dataDir(), 'runtime.db'))).mode & 0o777).toBe(0o600);
    expect((await stat(join(dataDir(), 'secrets.key'))).mode & 0o777).toBe(0o600);
  }, 120_000);

  it('stops on SIGTERM with status 0, its sandboxes paused in its database for the next start', async () => {
    expect(await stopServer(server)).toBe(0);
    await startIt();
    const after = await call('GET', '/sessions/cli-1');
    expect(after.body).toMatchObject({ status: 'paused', status_detail: 'the runtime stopped', url: null });
  }, 90_000);
});
