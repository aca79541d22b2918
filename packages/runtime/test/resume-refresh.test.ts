import { readFile } from 'node:fs/promises';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  LocalRuntime,
  type NetworkPolicy,
  RemoteRuntime,
  type Runtime,
  type RuntimeSandbox,
  SandboxSpecError,
} from '@bosun/runtime';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_COMMAND } from '../../../test/support/sandbox-bundle.ts';
import { listeningRuntimeApi, runtimeApiCaller } from './support/runtime-api-caller.ts';
import { connectProbe, replyServer, sh } from './support/sandbox-shell.ts';

const API_KEY = 'runtime-api-resume-key-0123456789';
const SECRET_A = 'secret-value-a-7f3c1e';
const SECRET_B = 'secret-value-b-92d04a';
const OPTIONS = { command: SANDBOX_COMMAND, startTimeoutMs: 90_000, stopGraceMs: 5_000 } as const;

type Reply = Awaited<ReturnType<typeof replyServer>>;
const allow = (server: Reply): NetworkPolicy => ({ mode: 'allow', hosts: [{ host: '127.0.0.1', port: server.port }] });

/** What the sandbox's agent server has in its environment (its bash session inherits it), and what it reaches. */
async function seen(sandbox: RuntimeSandbox, a: Reply, b: Reply) {
  expect(sandbox.status).toBe('RUNNING');
  const env = await sh(sandbox, 'echo "$MARK $NOTE"');
  const toA = (await sh(sandbox, connectProbe('127.0.0.1', a.port))).stdout.trim();
  const toB = (await sh(sandbox, connectProbe('127.0.0.1', b.port))).stdout.trim();
  return { env: env.stdout.trim(), a: toA.startsWith('CONNECTED'), b: toB.startsWith('CONNECTED') };
}

/**
 * For any Runtime: started with A and N1, paused, resumed with B and N2 runs with them; a refused refresh changes
 * nothing; resumed again without a refresh keeps B and N2. Answers the sandbox's id (PAUSED at the end).
 */
async function refreshes(runtime: Runtime, sessionId: string, a: Reply, b: Reply): Promise<string> {
  const started = await runtime.start({
    sessionId,
    environment: { MARK: 'a', NOTE: SECRET_A },
    network: allow(a),
  });
  expect(await seen(started, a, b)).toEqual({ env: `a ${SECRET_A}`, a: true, b: false });
  await runtime.pause(started.id);

  const refused = runtime.resume(started.id, { network: { mode: 'allow', hosts: [{ host: 'bad host', port: 1 }] } });
  await expect(refused).rejects.toBeInstanceOf(SandboxSpecError);
  expect((await runtime.get(started.id))?.status).toBe('PAUSED');

  const resumed = await runtime.resume(started.id, { environment: { MARK: 'b', NOTE: SECRET_B }, network: allow(b) });
  for (const secret of [SECRET_A, SECRET_B]) expect(JSON.stringify(resumed)).not.toContain(secret);
  expect(await seen(resumed, a, b)).toEqual({ env: `b ${SECRET_B}`, a: false, b: true });
  await runtime.pause(started.id);

  const again = await runtime.resume(started.id);
  expect(await seen(again, a, b)).toEqual({ env: `b ${SECRET_B}`, a: false, b: true });
  await runtime.pause(started.id);
  return started.id;
}

describe('resume with a refreshed environment and network', () => {
  let a: Reply;
  let b: Reply;
  // Each runtime's root is its own new directory (open makes it traversable by the sandboxes' user).
  const roots: string[] = [];
  const newRoot = async () => roots[roots.push(await mkdtemp(join(tmpdir(), 'bosun-resume-'))) - 1] as string;

  beforeAll(async () => {
    [a, b] = await Promise.all([replyServer('host a'), replyServer('host b')]);
  });

  afterAll(async () => {
    a?.close();
    b?.close();
    await Promise.all(roots.map((root) => rm(root, { recursive: true, force: true })));
  });

  it('the local backend runs it with them, keeps them, and a runtime opened later too', async () => {
    const warnings: string[] = [];
    const logger = { warn: (message: string) => warnings.push(message), info: () => {} };
    const own = await newRoot();
    let runtime = await LocalRuntime.open({ root: own, ...OPTIONS, logger });
    let id: string;
    try {
      id = await refreshes(runtime, 'local-refresh', a, b);
    } finally {
      await runtime.close();
    }
    // Its record (what a runtime opened later runs it from) holds B; no other file outside its directories has it.
    const record = await readFile(join(own, id, 'sandbox.json'), 'utf8');
    expect(record).toContain(SECRET_B);
    expect(record).not.toContain(SECRET_A);
    runtime = await LocalRuntime.open({ root: own, ...OPTIONS, logger });
    try {
      const resumed = await runtime.resume(id);
      expect(await seen(resumed, a, b)).toEqual({ env: `b ${SECRET_B}`, a: false, b: true });
    } finally {
      await runtime.close();
    }
    for (const secret of [SECRET_A, SECRET_B]) expect(warnings.join('\n')).not.toContain(secret);
  }, 240_000);

  describe('through the runtime API (RemoteRuntime, loopback)', () => {
    let runtime: LocalRuntime;
    let app: FastifyInstance;
    let base: string;
    const logs: string[] = [];
    const call = runtimeApiCaller(() => base, API_KEY);

    beforeAll(async () => {
      runtime = await LocalRuntime.open({ root: await newRoot(), ...OPTIONS });
      ({ app, base } = await listeningRuntimeApi(runtime, API_KEY, logs, 'debug'));
    });

    afterAll(async () => {
      await app?.close();
      await runtime?.close();
    });

    it('POST /resume takes environment and network beside runtime_id; secrets stay out of logs and answers', async () => {
      const remote = new RemoteRuntime({ baseUrl: base, apiKey: API_KEY });
      const id = await refreshes(remote, 'api-refresh', a, b);

      const badEnvironment = await call('POST', '/resume', { runtime_id: id, environment: { 'no-name': SECRET_A } });
      expect(badEnvironment.status).toBe(422);
      const unknownField = await call('POST', '/resume', { runtime_id: id, image: 'x' });
      expect(unknownField.status).toBe(422);
      for (const answer of [badEnvironment, unknownField]) expect(JSON.stringify(answer)).not.toContain(SECRET_A);

      // OpenHands' body (runtime_id alone) resumes as before: with what the last refresh gave.
      const plain = await call('POST', '/resume', { runtime_id: id });
      expect(plain.status).toBe(200);
      const resumed = (await remote.get(id)) as RuntimeSandbox;
      expect(await seen(resumed, a, b)).toEqual({ env: `b ${SECRET_B}`, a: false, b: true });

      expect(logs.length).toBeGreaterThan(5);
      for (const secret of [SECRET_A, SECRET_B]) expect(logs.join('\n')).not.toContain(secret);
    }, 240_000);
  });
});
