import { randomUUID } from 'node:crypto';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalRuntime } from '@bosun/runtime';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SANDBOX_COMMAND } from '../../../../test/support/sandbox-bundle.ts';
import type { Repositories } from '../../src/data/index.ts';
import { LOCAL_SPEC, RESTARTED, RuntimeSandboxes, sessionKeyHash } from '../../src/sandboxes/index.ts';
import { describeEachDatabase } from '../support/databases.ts';
import { sandboxWorkspace } from './processes.ts';

/**
 * What a restarted app makes of the sandboxes its previous run left RUNNING: taken over when the runtime still runs
 * them with the key whose hash the row holds (a runtime service outlives the app), paused when it runs them with a
 * key the app cannot vouch for, PAUSED when they stopped with an embedded runtime, and resumed only on demand.
 */
describeEachDatabase('sandboxes after a restart of the app', (each) => {
  let repositories: Repositories;
  let dataDir: string;
  let runtime: LocalRuntime;
  // As a restarted app with a runtime service: what it finds is left by its previous run (no lease to wait out).
  const open = (over: LocalRuntime = runtime, leaseMs = 0) =>
    RuntimeSandboxes.open({
      repository: repositories.sandboxes,
      runtime: over,
      specs: [LOCAL_SPEC],
      maxRunningPerUser: 10,
      pauseOnClose: false,
      leaseMs,
    });
  const newUser = async () => (await repositories.users.create({ email: `u-${randomUUID()}@example.test` })).id;

  beforeAll(async () => {
    repositories = (await each.shared()).repositories;
    dataDir = await mkdtemp(join(tmpdir(), 'bosun-restart-'));
    await chmod(dataDir, 0o711);
    runtime = await openRuntime(dataDir);
  });
  afterAll(async () => {
    await runtime?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('takes over what still runs with the key it issued, and pauses what runs with a key it cannot vouch for', async () => {
    const owner = await newUser();
    const before = await open();
    const [kept, doubted] = [await before.start(LOCAL_SPEC, owner), await before.start(LOCAL_SPEC, owner)];
    expect([kept.status, doubted.status]).toEqual(['RUNNING', 'RUNNING']);
    await repositories.sandboxes.update(doubted.id, { session_api_key_hash: sessionKeyHash('not the key it runs') });

    const after = await open();
    expect(await after.get(owner, kept.id)).toMatchObject({ status: 'RUNNING', sessionApiKey: kept.sessionApiKey });
    expect((await after.bySessionKey(kept.sessionApiKey as string))?.id).toBe(kept.id);
    expect(await after.get(owner, doubted.id)).toMatchObject({ status: 'PAUSED', sessionApiKey: null });
    expect(await runtime.getBySession(doubted.id)).toMatchObject({ status: 'PAUSED' });
    expect(await repositories.sandboxes.get(owner, doubted.id)).toMatchObject({
      status: 'PAUSED',
      status_detail: RESTARTED,
      session_api_key_hash: null,
    });
    expect(await after.bySessionKey(doubted.sessionApiKey as string)).toBeUndefined();
  });

  it('leaves a start another replica has under way (its row touched within the lease) to that replica', async () => {
    const owner = await newUser();
    const id = randomUUID().replaceAll('-', '');
    // A replica wrote the row and is starting it in the runtime service (which does not have it yet).
    await repositories.sandboxes.create({ id, userId: owner, specId: LOCAL_SPEC.id, status: 'STARTING' });
    await open(runtime, 60_000);
    expect(await repositories.sandboxes.get(owner, id)).toMatchObject({ status: 'STARTING', status_detail: null });
    // Once its lease ran out, nobody is starting it.
    await open(runtime, 0);
    expect(await repositories.sandboxes.get(owner, id)).toMatchObject({ status: 'PAUSED', status_detail: RESTARTED });
  });

  it('finds PAUSED what stopped with an embedded runtime, and resumes it over its workspace with a new key', async () => {
    const owner = await newUser();
    const before = await open();
    const sandbox = await before.start(LOCAL_SPEC, owner);
    const workspace = await sandboxWorkspace(runtime, dataDir, sandbox.id);
    await writeFile(join(workspace, 'kept.txt'), 'still here');
    // The app and its embedded runtime die: the runtime's sandboxes with it, the row still says RUNNING.
    await runtime.close();
    runtime = await openRuntime(dataDir);

    const after = await open();
    // The runtime's own reason is shown (it stopped them); the row says the app restarted.
    expect(await after.get(owner, sandbox.id)).toMatchObject({ status: 'PAUSED', statusDetail: 'the runtime stopped' });
    expect(await repositories.sandboxes.get(owner, sandbox.id)).toMatchObject({ status_detail: RESTARTED });
    const resumed = await after.resume(owner, sandbox.id);
    expect(resumed).toMatchObject({ status: 'RUNNING' });
    expect(resumed?.sessionApiKey).not.toBe(sandbox.sessionApiKey);
    expect(await readFile(join(workspace, 'kept.txt'), 'utf8')).toBe('still here');
    const stored = await repositories.sandboxes.get(owner, sandbox.id);
    expect(stored?.session_api_key_hash).toBe(sessionKeyHash(resumed?.sessionApiKey as string));
  });

  it('shows MISSING a sandbox the runtime no longer has', async () => {
    const owner = await newUser();
    const id = `gone${randomUUID().slice(0, 8)}`;
    await repositories.sandboxes.create({ id, userId: owner, specId: LOCAL_SPEC.id, status: 'PAUSED' });
    await repositories.sandboxes.update(id, { runtime_id: 'unknown-to-the-runtime' });
    const sandboxes = await open();
    expect(await sandboxes.get(owner, id)).toMatchObject({ status: 'MISSING', sessionApiKey: null });
  });
});

/** An embedded runtime over `<dataDir>/sandboxes`, sandboxes as plain processes of the bundle (fast to start). */
function openRuntime(dataDir: string): Promise<LocalRuntime> {
  return LocalRuntime.open({
    root: join(dataDir, 'sandboxes'),
    command: SANDBOX_COMMAND,
    unsafeNoIsolation: true,
    bwrapPath: '/nonexistent/bwrap',
  });
}
