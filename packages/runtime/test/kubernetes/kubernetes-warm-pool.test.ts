import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxNotFoundError } from '../../src/errors.ts';
import { sandboxActivity } from '../../src/kubernetes/ingress-probe.ts';
import type { KubernetesRuntime, KubernetesRuntimeOptions } from '../../src/kubernetes/kubernetes-runtime.ts';
import { sessionLabel } from '../../src/kubernetes/names.ts';
import type { RuntimeSandbox } from '../../src/runtime.ts';
import type { WarmPoolConfig } from '../../src/warm-pools.ts';
import type { KubeObject } from './support/kinds.ts';
import { NAMESPACE, objectsOf, openRuntime, startStandIn, validateAll } from './support/kube-fixture.ts';
import type { KubeStandIn } from './support/kube-stand-in.ts';

const POOL: WarmPoolConfig = { name: 'default', count: 1, spec: { environment: { POOL_MARK: 'warm', LMNR_X: '' } } };

let standIn: KubeStandIn;
let runtime: KubernetesRuntime;

async function until(check: () => Promise<boolean> | boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The roots waiting in `pool`, as the stand-in holds them. */
const waitingRoots = (pool = 'default'): KubeObject[] =>
  standIn.store
    .all()
    .filter(({ kind, object }) => kind === 'ConfigMap' && object.metadata.labels?.['bosun.dev/warm-pool'] === pool)
    .map(({ object }) => object);

const idOf = (object: KubeObject) => object.metadata.labels?.['bosun.dev/runtime-id'] ?? '';
const podsAdded = () => standIn.store.events.filter((event) => event.type === 'ADDED' && event.kind.kind === 'Pod');
const ready = async (on: KubernetesRuntime, count = 1) => (await on.health()).warm?.default === count;

/** Whether the agent server behind the sandbox's Ingress takes `key` (the running count answers only with it). */
const keyWorks = (sandbox: RuntimeSandbox, key: string) =>
  sandboxActivity(sandbox.url ?? '', key, { timeoutMs: 3000, address: standIn.ingressAddress }).then(Boolean);

async function reopen(options: Partial<KubernetesRuntimeOptions>): Promise<KubernetesRuntime> {
  return openRuntime(standIn, {}, { logger: { warn: () => {} }, ...options });
}

beforeAll(async () => {
  standIn = await startStandIn();
  runtime = await reopen({ warmPools: [POOL] });
  await until(() => ready(runtime), 'the pool to fill');
});

afterAll(async () => {
  await runtime?.close();
  await standIn?.close();
});

describe('Kubernetes runtime: warm pool', () => {
  let warmId: string;
  let claimed: RuntimeSandbox;

  it('fills a pool of one: a complete sandbox, its root labelled with the pool, invisible to callers', async () => {
    const [root] = waitingRoots();
    expect(waitingRoots()).toHaveLength(1);
    warmId = idOf(root!);
    const objects = objectsOf(standIn, warmId);
    expect([...objects.keys()].sort()).toEqual(
      ['ConfigMap', 'Ingress', 'NetworkPolicy', 'PersistentVolumeClaim', 'Pod', 'Secret', 'Service'].sort(),
    );
    expect(root!.metadata.annotations?.['bosun.dev/state']).toBe('active');
    // Nobody's session yet: no session label on any of its objects.
    for (const [, [object]] of objects) expect(object!.metadata.labels?.['bosun.dev/session']).toBeUndefined();
    expect(validateAll(standIn)).toBeGreaterThanOrEqual(8);

    await expect(runtime.get(warmId)).resolves.toBeUndefined();
    await expect(runtime.list()).resolves.toEqual([]);
    const warmSession = root!.metadata.annotations?.['bosun.dev/session-id'] ?? '';
    expect(warmSession).toBe(`warm:default:${warmId}`);
    await expect(runtime.getBySession(warmSession)).resolves.toBeUndefined();
    await expect(runtime.getManyBySession([warmSession])).resolves.toEqual([undefined]);
    await expect(runtime.pause(warmId)).rejects.toBeInstanceOf(SandboxNotFoundError);
    await expect(runtime.resume(warmId)).rejects.toBeInstanceOf(SandboxNotFoundError);
    await expect(runtime.stop(warmId)).rejects.toBeInstanceOf(SandboxNotFoundError);
    await expect(runtime.health()).resolves.toMatchObject({ running: 0, warm: { default: 1 } });
  });

  it('answers a matching start from the pool: no pod created, its own session id, a key that works', async () => {
    const podUid = objectsOf(standIn, warmId).get('Pod')![0]!.metadata.uid;
    const before = new Date().toISOString();
    const added = podsAdded().length;
    claimed = await runtime.start({
      sessionId: 'warm-1',
      workingDir: '/workspace/',
      environment: { POOL_MARK: 'warm', LMNR_PROJECT_API_KEY: '' },
    });
    expect(podsAdded().length).toBe(added);
    expect(claimed).toMatchObject({ id: warmId, sessionId: 'warm-1', status: 'RUNNING' });
    expect(claimed.createdAt < before).toBe(true);
    const objects = objectsOf(standIn, warmId);
    expect(objects.get('Pod')!.map((pod) => pod.metadata.uid)).toEqual([podUid]);

    const root = objects.get('ConfigMap')![0]!;
    expect(root.metadata.labels?.['bosun.dev/warm-pool']).toBeUndefined();
    expect(root.metadata.labels?.['bosun.dev/session']).toBe(sessionLabel('warm-1'));
    expect(root.metadata.annotations?.['bosun.dev/session-id']).toBe('warm-1');
    expect(JSON.parse((root.data as Record<string, string>)['spec.json']!).sessionId).toBe('warm-1');

    expect(await keyWorks(claimed, claimed.sessionApiKey!)).toBe(true);
    expect(await keyWorks(claimed, 'not-its-key')).toBe(false);
    await expect(runtime.getBySession('warm-1')).resolves.toMatchObject({ id: warmId, status: 'RUNNING' });
    await expect(runtime.get(warmId)).resolves.toMatchObject({ sessionApiKey: claimed.sessionApiKey });
    expect((await runtime.list()).map(({ id }) => id)).toEqual([warmId]);
    await expect(runtime.start({ sessionId: 'warm-1' })).rejects.toThrow(/session_id: .*already has/);
  });

  it('refills the pool in the background with a new sandbox', async () => {
    await until(() => ready(runtime), 'the pool to refill');
    const [root] = waitingRoots();
    expect(waitingRoots()).toHaveLength(1);
    expect(idOf(root!)).not.toBe(warmId);
    expect((await runtime.list()).map(({ id }) => id)).toEqual([warmId]);
  });

  it('starts a start whose environment the pool does not have cold, leaving the pool as it was', async () => {
    const waiting = idOf(waitingRoots()[0]!);
    const added = podsAdded().length;
    const cold = await runtime.start({ sessionId: 'cold-1', environment: { POOL_MARK: 'warm', EXTRA: 'needed' } });
    expect(cold.status).toBe('RUNNING');
    expect(cold.id).not.toBe(waiting);
    expect(podsAdded().length).toBe(added + 1);
    const secret = objectsOf(standIn, cold.id).get('Secret')![0]!.data as Record<string, string>;
    expect(Buffer.from(secret.EXTRA!, 'base64').toString()).toBe('needed');
    expect(waitingRoots().map(idOf)).toEqual([waiting]);
    expect(await keyWorks(cold, cold.sessionApiKey!)).toBe(true);
  });

  it('gives one of two concurrent starts the warm sandbox and the other a cold one, both RUNNING', async () => {
    const waiting = idOf(waitingRoots()[0]!);
    const [first, second] = await Promise.all([
      runtime.start({ sessionId: 'race-1', environment: { POOL_MARK: 'warm' } }),
      runtime.start({ sessionId: 'race-2', environment: { POOL_MARK: 'warm' } }),
    ]);
    expect([first!.status, second!.status]).toEqual(['RUNNING', 'RUNNING']);
    expect([first!.id, second!.id].filter((id) => id === waiting)).toHaveLength(1);
    expect(first!.id).not.toBe(second!.id);
    expect(first!.sessionApiKey).not.toBe(second!.sessionApiKey);
    await until(() => ready(runtime), 'the pool to refill');
  });

  it('starts cold when its claim loses to a concurrent change of the root (a 409 on the replace)', async () => {
    const waiting = idOf(waitingRoots()[0]!);
    standIn.fail({ verb: 'update', resource: 'configmaps', code: 409, reason: 'Conflict', message: 'modified' });
    const started = await runtime.start({ sessionId: 'lost-claim', environment: { POOL_MARK: 'warm' } });
    expect(started.status).toBe('RUNNING');
    expect(started.id).not.toBe(waiting);
    expect(waitingRoots().map(idOf)).toEqual([waiting]);
  });

  it('replaces a member whose pod went away while it waited, at the next start the pool serves', async () => {
    const [root] = waitingRoots();
    const dead = idOf(root!);
    const pod = objectsOf(standIn, dead).get('Pod')![0]!;
    standIn.remove('Pod', NAMESPACE, pod.metadata.name);
    const started = await runtime.start({ sessionId: 'after-eviction', environment: { POOL_MARK: 'warm' } });
    expect(started.status).toBe('RUNNING');
    expect(started.id).not.toBe(dead);
    await until(() => ready(runtime), 'the pool to be refilled');
    expect(objectsOf(standIn, dead).size).toBe(0);
    expect(waitingRoots().map(idOf)).not.toContain(dead);
  });
});

describe('Kubernetes runtime: warm pools across runtimes', () => {
  it('reuses waiting sandboxes of a pool configured alike, and never pauses them as idle', async () => {
    await runtime.close();
    const waiting = waitingRoots().map(idOf);
    expect(waiting).toHaveLength(1);
    const added = podsAdded().length;
    runtime = await reopen({
      warmPools: [POOL],
      lifecycle: { idlePauseMs: 200, deadDeleteMs: 400, sweepEveryMs: 50 },
    });
    await until(() => ready(runtime), 'the pool to be ready');
    // A caller's sandbox as idle as the waiting one is paused by the sweep; the waiting one still waits.
    const control = await runtime.start({ sessionId: 'control-idle', environment: { NOT_IN_POOL: '1' } });
    await until(async () => (await runtime.get(control.id))?.status !== 'RUNNING', 'the idle control to be paused');
    expect(waitingRoots().map(idOf)).toEqual(waiting);
    expect(waitingRoots()[0]!.metadata.annotations?.['bosun.dev/state']).toBe('active');
    expect(podsAdded().length).toBe(added + 1);
    await expect(runtime.health()).resolves.toMatchObject({ warm: { default: 1 } });
  });

  it('deletes waiting sandboxes whose pool is gone or has another shape, and fills the new one', async () => {
    await runtime.close();
    const old = waitingRoots().map(idOf);
    const changed = { ...POOL, spec: { environment: { POOL_MARK: 'changed' } } };
    runtime = await reopen({ warmPools: [changed, { name: 'other', count: 1, spec: { resourceFactor: 2 } }] });
    expect(objectsOf(standIn, old[0]!).get('ConfigMap')).toBeUndefined();
    await until(async () => (await runtime.health()).warm?.other === 1 && ready(runtime), 'both pools to fill');
    const [root] = waitingRoots();
    const secret = objectsOf(standIn, idOf(root!)).get('Secret')![0]!.data as Record<string, string>;
    expect(Buffer.from(secret.POOL_MARK!, 'base64').toString()).toBe('changed');

    await runtime.close();
    runtime = await reopen({});
    expect(waitingRoots('default')).toEqual([]);
    expect(waitingRoots('other')).toEqual([]);
  });

  it('refuses a pool name that cannot be a label value', async () => {
    await expect(reopen({ warmPools: [{ name: 'pool-', count: 1, spec: {} }] })).rejects.toThrow(/warm pool pool-:/);
    expect(() => runtime.addWarmPool({ name: '_x', count: 1, spec: {} })).toThrow(/warm pool _x:/);
  });
});
