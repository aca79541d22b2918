import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  DatabaseSandboxStore,
  LocalRuntime,
  type LocalSpec,
  type RuntimeSandbox,
  SandboxConflictError,
} from '@bosun/runtime';
import { newSecretsKey } from '@bosun/sealing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_COMMAND } from '../../../test/support/sandbox-bundle.ts';
import { type StoreTarget, storeTarget } from './support/databases.ts';
import { untilStatus } from './support/sandbox-shell.ts';

/**
 * How long a sweep's action may take to show on a loaded machine: a pause stops the agent server (up to its 5 s
 * grace) after a look at its activity (up to 5 s when it answers slowly), on top of the idle and dead times.
 */
const SETTLE_MS = 45_000;

/** Idle sandboxes paused and long-dead ones deleted by the runtime itself, its records in PostgreSQL. */
describe('local runtime: lifecycle sweep', () => {
  let root: string;
  let target: StoreTarget;
  const key = newSecretsKey();
  let runtime: LocalRuntime;
  let sandbox: RuntimeSandbox;
  let busy: RuntimeSandbox;
  let traffic: NodeJS.Timeout | undefined;
  const openStore = () =>
    DatabaseSandboxStore.open<LocalSpec>({
      url: target.url,
      sqlitePath: target.sqlitePath,
      createDatabase: true,
      key,
    });

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'bosun-runtime-lifecycle-'));
    target = await storeTarget('postgres');
    runtime = await LocalRuntime.open({
      root,
      command: SANDBOX_COMMAND,
      store: await openStore(),
      startTimeoutMs: 90_000,
      stopGraceMs: 5_000,
      lifecycle: { idlePauseMs: 1_000, deadDeleteMs: 3_000, sweepEveryMs: 100 },
    });
    [sandbox, busy] = await Promise.all([
      runtime.start({ sessionId: 'idle-1' }),
      runtime.start({ sessionId: 'busy-1' }),
    ]);
    expect([sandbox.status, busy.status]).toEqual(['RUNNING', 'RUNNING']);
    // A client using `busy` through its bridge (requests that append no event: only the bridge sees them).
    traffic = setInterval(() => void fetch(`${busy.url}/server_info`).catch(() => {}), 200);
  }, 120_000);

  afterAll(async () => {
    clearInterval(traffic);
    await runtime?.close();
    await target?.cleanUp();
    await rm(root, { recursive: true, force: true });
  });

  it(
    'pauses a sandbox idle for the idle time, saying why',
    async () => {
      const paused = await untilStatus(runtime, sandbox.id, (found) => found?.status !== 'RUNNING', SETTLE_MS);
      expect(paused).toMatchObject({ status: 'PAUSED', url: null, sessionApiKey: null });
      expect(paused?.statusDetail).toMatch(/^paused by the runtime: idle for 1 s/);
      expect(existsSync(join(root, sandbox.id, 'workspace'))).toBe(true);
      expect((await runtime.get(busy.id))?.status).toBe('RUNNING');
    },
    2 * SETTLE_MS,
  );

  it(
    'deletes one paused for the dead time: its workspace goes, its record stays MISSING with why',
    async () => {
      const dir = join(root, sandbox.id);
      const gone = await untilStatus(
        runtime,
        sandbox.id,
        (found) => found?.status !== 'PAUSED' && !existsSync(dir),
        SETTLE_MS,
      );
      expect(gone?.status).toBe('MISSING');
      expect(gone?.statusDetail).toBe('deleted by the runtime: PAUSED for more than 3 s');
      await expect(runtime.resume(sandbox.id)).rejects.toBeInstanceOf(SandboxConflictError);
      // Used all along (over three times the idle time by now): still running, until its client stops.
      expect((await runtime.get(busy.id))?.status).toBe('RUNNING');
      clearInterval(traffic);
      const rested = await untilStatus(runtime, busy.id, (found) => found?.status !== 'RUNNING', SETTLE_MS);
      expect(rested?.statusDetail).toMatch(/^paused by the runtime: idle/);
    },
    3 * SETTLE_MS,
  );

  it('finds the same state in its database after a restart', async () => {
    await runtime.close();
    runtime = await LocalRuntime.open({
      root,
      command: SANDBOX_COMMAND,
      store: await openStore(),
      startTimeoutMs: 90_000,
    });
    expect(await runtime.getBySession('idle-1')).toMatchObject({
      id: sandbox.id,
      status: 'MISSING',
      statusDetail: 'deleted by the runtime: PAUSED for more than 3 s',
    });
  });
});
