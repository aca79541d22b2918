import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxSpecError } from '../../src/errors.ts';
import type { KubernetesRuntime } from '../../src/kubernetes/kubernetes-runtime.ts';
import type { NetworkPolicy, Runtime } from '../../src/runtime.ts';
import { type Wire, objectsOf, openRuntime, startStandIn, validateAll } from './support/kube-fixture.ts';
import type { KubeStandIn } from './support/kube-stand-in.ts';

const SECRET_A = 'secret-value-a-51be07';
const SECRET_B = 'secret-value-b-c9e2f4';
const N1: NetworkPolicy = { mode: 'allow', hosts: [{ host: '203.0.113.9', port: 443 }] };
const N2: NetworkPolicy = { mode: 'allow', hosts: [{ host: '198.51.100.7', port: 8443 }] };

let standIn: KubeStandIn;
let runtime: KubernetesRuntime;
const warnings: string[] = [];

beforeAll(async () => {
  standIn = await startStandIn();
  runtime = await openRuntime(standIn, {}, { logger: { warn: (message) => warnings.push(message) } });
});

afterAll(async () => {
  await runtime?.close();
  await standIn?.close();
});

/** What the sandbox's objects say it runs with: its Secret's environment (but the key), its policy's addresses. */
function runsWith(id: string) {
  const objects = objectsOf(standIn, id);
  const data = (objects.get('Secret')![0]!.data ?? {}) as Record<string, string>;
  const environment = Object.fromEntries(
    Object.entries(data)
      .filter(([name]) => name !== 'BOSUN_SESSION_API_KEYS')
      .map(([name, value]) => [name, Buffer.from(value, 'base64').toString()]),
  );
  const egress = (objects.get('NetworkPolicy')![0]!.spec as Wire).egress as Wire[];
  const allowed = egress.flatMap((rule) => rule.to.flatMap((peer: Wire) => (peer.ipBlock ? [peer.ipBlock.cidr] : [])));
  const root = objects.get('ConfigMap')![0]!;
  const spec = JSON.parse((root.data as Record<string, string>)['spec.json'] ?? '{}');
  return { environment, allowed, network: spec.network, pods: objects.get('Pod')?.length ?? 0, root };
}

async function resumedRunning(on: Runtime, id: string, refresh?: Parameters<Runtime['resume']>[1]) {
  const resumed = await on.resume(id, refresh);
  expect(resumed.status).toBe('RUNNING');
  for (const secret of [SECRET_A, SECRET_B]) expect(JSON.stringify(resumed)).not.toContain(secret);
  return resumed;
}

describe('a Kubernetes sandbox resumed with a refreshed environment and network', () => {
  it('runs with them (its Secret and NetworkPolicy replaced, its root recording the network), and keeps them', async () => {
    const started = await runtime.start({
      sessionId: 'conversation-refresh',
      environment: { MARK: 'a', NOTE: SECRET_A },
      network: N1,
    });
    expect(started.status).toBe('RUNNING');
    expect(runsWith(started.id)).toMatchObject({
      environment: { MARK: 'a', NOTE: SECRET_A },
      allowed: ['203.0.113.9/32'],
    });
    await runtime.pause(started.id);

    // A refresh it cannot run (a NetworkPolicy names no host) changes nothing: still paused, A and N1.
    const named: NetworkPolicy = { mode: 'allow', hosts: [{ host: 'llm.example.com', port: 443 }] };
    await expect(runtime.resume(started.id, { network: named })).rejects.toBeInstanceOf(SandboxSpecError);
    expect(runsWith(started.id)).toMatchObject({ environment: { NOTE: SECRET_A }, network: N1, pods: 0 });
    expect((await runtime.get(started.id))?.status).toBe('PAUSED');

    await resumedRunning(runtime, started.id, { environment: { MARK: 'b', NOTE: SECRET_B }, network: N2 });
    const refreshed = runsWith(started.id);
    expect(refreshed).toMatchObject({
      environment: { MARK: 'b', NOTE: SECRET_B },
      allowed: ['198.51.100.7/32'],
      network: N2,
      pods: 1,
    });
    expect(JSON.stringify(refreshed.root)).not.toContain(SECRET_B);
    expect(validateAll(standIn)).toBeGreaterThanOrEqual(7);

    // A plain resume keeps B and N2, and so does a runtime opened later over the same namespace.
    await runtime.pause(started.id);
    await resumedRunning(runtime, started.id);
    expect(runsWith(started.id)).toMatchObject({
      environment: { MARK: 'b', NOTE: SECRET_B },
      allowed: ['198.51.100.7/32'],
    });
    const other = await openRuntime(standIn);
    try {
      await other.pause(started.id);
      await resumedRunning(other, started.id);
      expect(runsWith(started.id)).toMatchObject({ environment: { NOTE: SECRET_B }, network: N2 });
    } finally {
      await other.close();
    }

    // Only the environment given: the network stays N2.
    await runtime.pause(started.id);
    await resumedRunning(runtime, started.id, { environment: { MARK: 'c' } });
    expect(runsWith(started.id)).toMatchObject({ environment: { MARK: 'c' }, allowed: ['198.51.100.7/32'] });
    expect(runsWith(started.id).environment).not.toHaveProperty('NOTE');
    for (const secret of [SECRET_A, SECRET_B]) expect(warnings.join('\n')).not.toContain(secret);
  });
});
