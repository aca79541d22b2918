import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  LocalRuntime,
  RemoteRuntime,
  type RuntimeInfoWire,
  SandboxConflictError,
  SandboxNotFoundError,
  SandboxSpecError,
} from '@bosun/runtime';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_COMMAND } from '../../../test/support/sandbox-bundle.ts';
import { listeningRuntimeApi, runtimeApiCaller } from './support/runtime-api-caller.ts';

const API_KEY = 'runtime-api-test-key-0123456789';

/** The runtime API over a real local runtime, on a loopback port, called as OpenHands' clients call it. */
describe('runtime API over the local runtime', () => {
  let root: string;
  let runtime: LocalRuntime;
  let app: FastifyInstance;
  let base: string;
  const logs: string[] = [];
  const keysSeen: string[] = [];

  const call = runtimeApiCaller(() => base, API_KEY);

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'bosun-runtime-api-'));
    runtime = await LocalRuntime.open({ root, command: SANDBOX_COMMAND, startTimeoutMs: 90_000, stopGraceMs: 5_000 });
    ({ app, base } = await listeningRuntimeApi(runtime, API_KEY, logs));
  });

  afterAll(async () => {
    await app?.close();
    await runtime?.close();
    await rm(root, { recursive: true, force: true });
  });

  it('answers /health without a key, and nothing else without the right one', async () => {
    const health = await call('GET', '/health', undefined, null);
    expect(health).toMatchObject({ status: 200, body: { status: 'ok', backend: 'local', isolated: true } });
    for (const key of [null, 'wrong-key-of-some-length', `${API_KEY}x`]) {
      const refused = await call('GET', '/list', undefined, key);
      expect(refused).toEqual({ status: 401, body: { detail: 'a valid X-API-Key header is required' } });
    }
  });

  it('refuses a bad start body with 422 naming the field', async () => {
    const factor = await call('POST', '/start', { session_id: 's', resource_factor: 3 });
    expect(factor.status).toBe(422);
    expect(factor.body.detail).toEqual(
      expect.arrayContaining([expect.objectContaining({ loc: expect.arrayContaining(['body']) })]),
    );
    const unknown = await call('POST', '/start', { session_id: 's', surprise: true });
    expect(unknown.status).toBe(422);
    const workingDir = await call('POST', '/start', { session_id: 's', working_dir: '/usr/share/x' });
    expect(workingDir).toEqual({
      status: 422,
      body: { detail: [{ loc: ['body', 'working_dir'], msg: 'must not be or contain /usr', type: 'value_error' }] },
    });
    expect((await call('POST', '/stop', {})).status).toBe(422);
    expect((await call('GET', '/sessions/batch')).status).toBe(422);
  });

  it('starts, reports, lists, pauses and stops a sandbox as OpenHands runtime API clients expect', async () => {
    const started = await call('POST', '/start', {
      session_id: 'api-1',
      image: 'ignored-by-the-local-backend',
      working_dir: '/workspace',
      environment: { SOME: 'value' },
      resource_factor: 1,
      fs_group: 10001,
      runtime_class: null,
    });
    expect(started.status).toBe(200);
    const info = started.body as unknown as RuntimeInfoWire;
    keysSeen.push(`${info.session_api_key}`);
    expect(info).toMatchObject({ session_id: 'api-1', status: 'running', status_detail: null });
    const tools = await fetch(`${info.url}/api/tools/`, {
      headers: { 'X-Session-API-Key': `${info.session_api_key}` },
    });
    expect(tools.status).toBe(200);

    expect(await call('GET', '/sessions/api-1')).toMatchObject({ status: 200, body: { runtime_id: info.runtime_id } });
    expect(await call('GET', `/runtime/${info.runtime_id}`)).toMatchObject({
      status: 200,
      body: { session_id: 'api-1' },
    });
    const batch = await call('GET', '/sessions/batch?ids=api-1&ids=nobody');
    expect(batch.status).toBe(200);
    expect((batch.body as unknown as (RuntimeInfoWire | null)[]).map((item) => item?.runtime_id ?? null)).toEqual([
      info.runtime_id,
      null,
    ]);
    expect(await call('GET', '/list')).toMatchObject({ status: 200, body: { total: 1 } });
    expect(await call('GET', '/sessions/nobody')).toEqual({ status: 404, body: { detail: 'no session nobody' } });
    expect((await call('POST', '/start', { session_id: 'api-1' })).status).toBe(422);

    const resumeRunning = await call('POST', '/resume', { runtime_id: info.runtime_id });
    expect(resumeRunning.status).toBe(409);
    expect(typeof resumeRunning.body.detail).toBe('string');

    const paused = await call('POST', '/pause', { runtime_id: info.runtime_id });
    expect(paused).toMatchObject({ status: 200, body: { status: 'paused', session_api_key: null, url: null } });
    expect(await call('GET', '/list')).toMatchObject({ status: 200, body: { runtimes: [], total: 0 } });

    expect(await call('POST', '/stop', { runtime_id: info.runtime_id })).toEqual({
      status: 200,
      body: { success: true },
    });
    expect((await call('POST', '/stop', { runtime_id: info.runtime_id })).status).toBe(404);
    expect((await call('POST', '/resume', { runtime_id: info.runtime_id })).status).toBe(404);
    expect((await call('GET', `/runtime/${info.runtime_id}`)).status).toBe(404);
  }, 120_000);

  it('answers a sandbox that could not start as error, with why (a command given as one string)', async () => {
    const failed = await call('POST', '/start', {
      session_id: 'api-2',
      command: `${process.execPath} -e process.exit(5)`,
    });
    expect(failed).toMatchObject({
      status: 200,
      body: { status: 'error', status_detail: 'its agent server exited with code 5', session_api_key: null },
    });
  });

  it('is the same Runtime through RemoteRuntime, errors included', async () => {
    const remote = new RemoteRuntime({ baseUrl: base, apiKey: API_KEY });
    expect(await remote.health()).toMatchObject({ backend: 'local', isolated: true });
    await expect(remote.start({ sessionId: 'r', workingDir: '/usr/x' })).rejects.toThrow(
      new SandboxSpecError('working_dir: must not be or contain /usr'),
    );
    const failed = await remote.start({ sessionId: 'remote-1', command: [process.execPath, '-e', 'process.exit(6)'] });
    expect(failed).toMatchObject({ sessionId: 'remote-1', status: 'ERROR', url: null, sessionApiKey: null });
    expect(failed.statusDetail).toBe('its agent server exited with code 6');
    expect(await remote.get(failed.id)).toEqual(failed);
    expect((await remote.getManyBySession(['nobody', 'remote-1'])).map((found) => found?.id)).toEqual([
      undefined,
      failed.id,
    ]);
    expect(await remote.getBySession('nobody')).toBeUndefined();
    expect(await remote.list()).toEqual([]);

    // Its workspace removed behind the runtime's back: MISSING, which does not resume.
    await rm(join(root, failed.id, 'workspace'), { recursive: true });
    expect((await remote.get(failed.id))?.status).toBe('MISSING');
    const conflict = await remote.resume(failed.id).catch((error: unknown) => error);
    expect(conflict).toBeInstanceOf(SandboxConflictError);
    expect((conflict as SandboxConflictError).status).toBe('MISSING');

    await remote.stop(failed.id);
    await expect(remote.stop(failed.id)).rejects.toBeInstanceOf(SandboxNotFoundError);
    await expect(remote.pause(failed.id)).rejects.toBeInstanceOf(SandboxNotFoundError);
  });

  it('logs requests, never the API key nor a session key', () => {
    expect(logs.length).toBeGreaterThan(10);
    expect(keysSeen).toHaveLength(1);
    for (const secret of [API_KEY, ...keysSeen]) expect(logs.join('\n')).not.toContain(secret);
  });
});
