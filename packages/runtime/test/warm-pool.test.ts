import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSandboxStore, LocalRuntime, type LocalSpec, type RuntimeSandbox } from '@bosun/runtime';
import { newSecretsKey } from '@bosun/sealing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_COMMAND } from '../../../test/support/sandbox-bundle.ts';
import { type StoreTarget, storeTarget } from './support/databases.ts';
import { sh } from './support/sandbox-shell.ts';

/** Resolves once `check` holds (polled), or fails after `timeoutMs`. */
async function until(check: () => Promise<boolean>, what: string, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A warm pool of one, on a runtime whose records are in SQLite. */
describe('local runtime: warm pool', () => {
  let root: string;
  let target: StoreTarget;
  let runtime: LocalRuntime;
  const warmReady = async () => (await runtime.health()).warm?.default === 1;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'bosun-runtime-warm-'));
    target = await storeTarget('sqlite');
    const store = await DatabaseSandboxStore.open<LocalSpec>({ sqlitePath: target.sqlitePath, key: newSecretsKey() });
    runtime = await LocalRuntime.open({
      root,
      command: SANDBOX_COMMAND,
      store,
      startTimeoutMs: 90_000,
      stopGraceMs: 5_000,
      warmPools: [{ name: 'default', count: 1, spec: { environment: { POOL_MARK: 'warm', LMNR_X: '' } } }],
    });
    await until(warmReady, 'the pool to fill');
  }, 120_000);

  afterAll(async () => {
    await runtime?.close();
    await target?.cleanUp();
    await rm(root, { recursive: true, force: true });
  });

  let claimed: RuntimeSandbox;

  it('serves a matching start from the pool: a process started before the call, with a key never handed out', async () => {
    expect(await runtime.list()).toEqual([]);
    const before = new Date().toISOString();
    claimed = await runtime.start({
      sessionId: 'warm-1',
      workingDir: '/workspace/',
      environment: { POOL_MARK: 'warm', LMNR_PROJECT_API_KEY: '' },
    });
    expect(claimed).toMatchObject({ sessionId: 'warm-1', status: 'RUNNING' });
    expect(claimed.createdAt < before).toBe(true);
    expect((await sh(claimed, 'echo "$POOL_MARK"')).stdout.trim()).toBe('warm');
    expect((await runtime.getBySession('warm-1'))?.id).toBe(claimed.id);
    expect((await runtime.list()).map(({ id }) => id)).toEqual([claimed.id]);
  }, 180_000);

  it('refills the pool in the background with a new sandbox', async () => {
    await until(warmReady, 'the pool to refill');
    // The waiting one is nobody's: it is in no answer of the runtime's.
    expect((await runtime.list()).map(({ id }) => id)).toEqual([claimed.id]);
  }, 120_000);

  it('starts a start that does not match cold, leaving the pool as it was', async () => {
    const before = new Date().toISOString();
    const cold = await runtime.start({ sessionId: 'cold-1', environment: { POOL_MARK: 'warm', EXTRA: 'needed' } });
    expect(cold.status).toBe('RUNNING');
    expect(cold.createdAt >= before).toBe(true);
    expect((await sh(cold, 'echo "$EXTRA"')).stdout.trim()).toBe('needed');
    expect((await runtime.health()).warm?.default).toBe(1);
    expect(cold.sessionApiKey).not.toBe(claimed.sessionApiKey);
  }, 120_000);

  it("a claimed one resumed with a new environment runs with it, and the pool's shape stays as configured", async () => {
    await runtime.pause(claimed.id);
    const resumed = await runtime.resume(claimed.id, { environment: { POOL_MARK: 'refreshed' } });
    expect((await sh(resumed, 'echo "$POOL_MARK"')).stdout.trim()).toBe('refreshed');
    // The next matching start is still served by the pool, with the pool's environment.
    await until(warmReady, 'the pool to refill');
    const before = new Date().toISOString();
    const next = await runtime.start({ sessionId: 'warm-2', environment: { POOL_MARK: 'warm' } });
    expect(next.createdAt < before).toBe(true);
    expect((await sh(next, 'echo "$POOL_MARK"')).stdout.trim()).toBe('warm');
  }, 120_000);

  it("answers its pools for /api/warm-runtime-configs, never a variable's value", () => {
    const configs = runtime.warmConfigs();
    expect(configs).toEqual([
      expect.objectContaining({
        name: 'default',
        count: 1,
        working_dir: '/workspace',
        environment_keys: ['LMNR_X', 'POOL_MARK'],
      }),
    ]);
    expect(JSON.stringify(configs)).not.toContain('"warm"');
  });
});
