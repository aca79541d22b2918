import { createServer } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { KubernetesRuntimeSettings } from '../../src/kubernetes/kubernetes-config.ts';
import type { KubernetesRuntime } from '../../src/kubernetes/kubernetes-runtime.ts';
import { sessionLabel } from '../../src/kubernetes/names.ts';
import type { KubeObject } from './support/kinds.ts';
import { NAMESPACE, objectsOf, openRuntime, startStandIn } from './support/kube-fixture.ts';
import type { KubeStandIn } from './support/kube-stand-in.ts';

let standIn: KubeStandIn;
const opened: KubernetesRuntime[] = [];

beforeAll(async () => {
  standIn = await startStandIn();
});

afterEach(() => {
  standIn.faults.length = 0;
  standIn.beforeCreate = undefined;
  Object.assign(standIn.behaviour, { claimsNeverBind: false, unschedulable: undefined, containerWaiting: undefined });
});

afterAll(async () => {
  await Promise.all(opened.map((runtime) => runtime.close()));
  await standIn?.close();
});

async function runtimeWith(extra: Partial<KubernetesRuntimeSettings> = {}): Promise<KubernetesRuntime> {
  const runtime = await openRuntime(standIn, extra);
  opened.push(runtime);
  return runtime;
}

const FORBIDDEN = (resource: string) =>
  `${resource} is forbidden: User "system:serviceaccount:bosun:runtime" cannot create resource "${resource}" in API group "" in the namespace "${NAMESPACE}"`;

describe('Kubernetes backend settings', () => {
  it('refuses a URL pattern that does not match the base URL, naming both', async () => {
    await expect(
      runtimeWith({ runtime_url_separator: '-', runtime_url_pattern: 'http://{runtime_id}.sandboxes.bosun.test' }),
    ).rejects.toThrow(
      'RUNTIME_URL_PATTERN http://{runtime_id}.sandboxes.bosun.test does not match RUNTIME_BASE_URL sandboxes.bosun.test with RUNTIME_URL_SEPARATOR "-" and RUNTIME_DISABLE_SSL=true: sandboxes would be at http://{runtime_id}-sandboxes.bosun.test',
    );
    await expect(runtimeWith({ runtime_url_pattern: 'https://{runtime_id}.sandboxes.bosun.test' })).rejects.toThrow(
      /RUNTIME_URL_PATTERN https:.* does not match .*RUNTIME_DISABLE_SSL=true/,
    );
    await expect(runtimeWith({ runtime_base_url: 'https://sandboxes.bosun.test' })).rejects.toThrow(
      /RUNTIME_BASE_URL "https:\/\/sandboxes.bosun.test" must be a lowercase host name/,
    );
    await expect(runtimeWith({ namespace: 'bosun' })).rejects.toThrow(/namespace bosun is the application's/);
  });

  it('serves sandboxes at the pattern it was given when it matches', async () => {
    const runtime = await runtimeWith({
      runtime_url_separator: '-',
      runtime_url_pattern: 'http://{runtime_id}-sandboxes.bosun.test',
    });
    const sandbox = await runtime.start({ sessionId: 'pattern' });
    expect(sandbox).toMatchObject({ status: 'RUNNING', url: `http://${sandbox.id}-sandboxes.bosun.test` });
  });

  it('does not open without permission to list its namespace (RBAC 403)', async () => {
    standIn.fail({
      verb: 'list',
      resource: 'configmaps',
      code: 403,
      reason: 'Forbidden',
      message: 'configmaps is forbidden',
    });
    await expect(runtimeWith()).rejects.toThrow(/list ConfigMap in namespace bosun-sandboxes: Forbidden \(403\)/);
  });
});

describe('a Kubernetes sandbox that cannot start', () => {
  it('is ERROR when creating its pod is forbidden, and resumes once it is allowed', async () => {
    const runtime = await runtimeWith();
    standIn.fail({ verb: 'create', resource: 'pods', code: 403, reason: 'Forbidden', message: FORBIDDEN('pods') });
    const sandbox = await runtime.start({ sessionId: 'forbidden' });
    expect(sandbox.status).toBe('ERROR');
    expect(sandbox.statusDetail).toMatch(
      /^create Pod bosun-sandbox-\w+-1 in namespace bosun-sandboxes: Forbidden \(403\): pods is forbidden/,
    );
    expect(objectsOf(standIn, sandbox.id).has('Pod')).toBe(false);
    await expect(runtime.resume(sandbox.id)).resolves.toMatchObject({ status: 'RUNNING' });
  });

  it('retries a create answered 409 when the object is not there, and refuses a name taken by another', async () => {
    const runtime = await runtimeWith();
    standIn.fail({
      verb: 'create',
      resource: 'services',
      code: 409,
      reason: 'AlreadyExists',
      message: 'services "x" already exists',
    });
    await expect(runtime.start({ sessionId: 'raced' })).resolves.toMatchObject({ status: 'RUNNING' });

    standIn.beforeCreate = (object) => {
      if (object.kind !== 'Service') return;
      standIn.beforeCreate = undefined;
      const { ownerReferences: _owned, ...metadata } = object.metadata;
      standIn.put({ ...object, metadata: { ...metadata, labels: { squatter: 'yes' } } });
    };
    const sandbox = await runtime.start({ sessionId: 'squatted' });
    expect(sandbox.status).toBe('ERROR');
    expect(sandbox.statusDetail).toBe(
      `Service bosun-sandbox-${sandbox.id} already exists in namespace ${NAMESPACE} and is not this sandbox's`,
    );
  });

  it('is ERROR, not a hang, when its storage class does not exist', async () => {
    const runtime = await runtimeWith({ storage_class: 'standard-rwo' });
    const sandbox = await runtime.start({ sessionId: 'no-storage-class' });
    expect(sandbox).toMatchObject({ status: 'ERROR', url: null, sessionApiKey: null });
    expect(sandbox.statusDetail).toMatch(/^storage class standard-rwo \(STORAGE_CLASS\) does not exist in the cluster/);
    expect(objectsOf(standIn, sandbox.id).has('Pod')).toBe(false);
  });

  it('is ERROR when its workspace claim never binds', async () => {
    standIn.behaviour.claimsNeverBind = true;
    const runtime = await runtimeWith({ volume_bind_timeout_ms: 200 });
    const sandbox = await runtime.start({ sessionId: 'unbound' });
    expect(sandbox.status).toBe('ERROR');
    expect(sandbox.statusDetail).toMatch(
      /^its workspace claim bosun-sandbox-\w+ is Pending, not Bound, after 0 s \(storage class fast\)/,
    );
    expect(objectsOf(standIn, sandbox.id).has('Pod')).toBe(false);
  });

  it("reaps a pod stuck Unschedulable, with the scheduler's reason", async () => {
    standIn.behaviour.unschedulable = '0/3 nodes are available: 3 Insufficient cpu.';
    const runtime = await runtimeWith({ unschedulable_timeout_ms: 200 });
    const sandbox = await runtime.start({ sessionId: 'unschedulable' });
    expect(sandbox.status).toBe('ERROR');
    expect(sandbox.statusDetail).toBe(
      'its pod cannot be scheduled: 0/3 nodes are available: 3 Insufficient cpu. (reaped after 0 s)',
    );
    expect(objectsOf(standIn, sandbox.id).has('Pod')).toBe(false);
  });

  it('is ERROR when its image cannot be pulled', async () => {
    standIn.behaviour.containerWaiting = { reason: 'ErrImagePull', message: 'manifest unknown' };
    const runtime = await runtimeWith();
    const sandbox = await runtime.start({ sessionId: 'bad-image', image: 'ghcr.io/bosun/nope:1' });
    expect(sandbox.statusDetail).toBe('its agent server cannot run: ErrImagePull: manifest unknown');
  });

  it('is not RUNNING while its URL does not answer, even with a Ready pod', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise((resolve) => closed.close(resolve));
    const runtime = await runtimeWith({ probe_address: `127.0.0.1:${port}`, start_timeout_ms: 300 });
    const sandbox = await runtime.start({ sessionId: 'unreachable' });
    expect(sandbox.status).toBe('ERROR');
    expect(sandbox.statusDetail).toMatch(
      /^not RUNNING after 0 s: its pod is ready but its URL is not: http:\/\/\w+\.sandboxes\.bosun\.test\/alive does not answer: connect ECONNREFUSED/,
    );
  });

  it('is not RUNNING when its NetworkPolicy does not admit the ingress controller', async () => {
    const runtime = await runtimeWith({ ingress_from: [{ namespace: 'elsewhere' }], start_timeout_ms: 300 });
    const sandbox = await runtime.start({ sessionId: 'fenced-off' });
    expect(sandbox.status).toBe('ERROR');
    expect(sandbox.statusDetail).toMatch(/its pod is ready but its URL is not: .*\/alive answered 504/);
  });
});

describe('a closing Kubernetes runtime', () => {
  it('stops waiting for a start and leaves the sandbox to the cluster', async () => {
    standIn.behaviour.unschedulable = '0/3 nodes are available: 3 Insufficient memory.';
    const runtime = await openRuntime(standIn);
    const starting = runtime.start({ sessionId: 'left-starting' });
    const ours = ({ kind, object }: { kind: string; object: KubeObject }) =>
      kind === 'Pod' && object.metadata.labels?.['bosun.dev/session'] === sessionLabel('left-starting');
    await expect.poll(() => standIn.store.all().some(ours)).toBe(true);
    await runtime.close();
    const sandbox = await starting;
    expect(sandbox.status).toBe('STARTING');
    expect(objectsOf(standIn, sandbox.id).get('Pod')).toHaveLength(1);
    standIn.behaviour.unschedulable = undefined;
    standIn.remove('Pod', NAMESPACE, `bosun-sandbox-${sandbox.id}-1`);
    const next = await runtimeWith();
    await expect(next.resume(sandbox.id)).resolves.toMatchObject({ status: 'RUNNING' });
  });
});

describe('a running Kubernetes sandbox', () => {
  it('is STARTING while its Ingress is gone, and ERROR once its pod is', async () => {
    const runtime = await runtimeWith();
    const sandbox = await runtime.start({ sessionId: 'lost' });
    const objects = objectsOf(standIn, sandbox.id);
    const ingress = objects.get('Ingress')![0]!;
    standIn.remove('Ingress', NAMESPACE, ingress.metadata.name);
    const unreachable = await runtime.get(sandbox.id);
    expect(unreachable).toMatchObject({ status: 'STARTING', sessionApiKey: null });
    expect(unreachable?.statusDetail).toMatch(/its pod is ready but its URL is not: .* answered 404/);

    standIn.remove('Pod', NAMESPACE, objects.get('Pod')![0]!.metadata.name);
    const gone = await runtime.get(sandbox.id);
    expect(gone).toMatchObject({ status: 'ERROR', statusDetail: expect.stringMatching(/^its pod is gone/) });
    // The reaper records it on the root: a new runtime sees the same ERROR.
    const other = await runtimeWith();
    await expect.poll(async () => (await other.get(sandbox.id))?.statusDetail).toMatch(/^its pod is gone/);
  });
});
