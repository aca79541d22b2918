import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KUBERNETES_PERMISSIONS } from '../../src/index.ts';
import type { KubernetesRuntime } from '../../src/kubernetes/kubernetes-runtime.ts';
import type { WarmPoolConfig } from '../../src/warm-pools.ts';
import { untilStatus } from '../support/sandbox-shell.ts';
import { NAMESPACE, objectsOf, openRuntime, startStandIn } from './support/kube-fixture.ts';
import type { KubeStandIn } from './support/kube-stand-in.ts';

/**
 * The Role a chart grants the runtime (KUBERNETES_PERMISSIONS, in the README) against every request the backend
 * makes in a whole lifecycle: a warm pool filled and claimed, a cold start, pause, resume, stop, and the sweep
 * pausing an idle sandbox and deleting it once dead.
 */

const POOL: WarmPoolConfig = { name: 'default', count: 1, spec: { environment: { POOL_MARK: 'warm' } } };
const pair = (apiGroup: string, resource: string, verb: string) => `${apiGroup || 'core'} ${resource} ${verb}`;

let standIn: KubeStandIn;
let runtime: KubernetesRuntime | undefined;

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  standIn = await startStandIn();
  const pooled = await openRuntime(standIn, {}, { warmPools: [POOL], logger: { warn: () => {} } });
  runtime = pooled;
  await until(async () => (await pooled.health()).warm?.default === 1, 'the pool to fill');
  const claimed = await pooled.start({ sessionId: 'warm-1', environment: { POOL_MARK: 'warm' } });
  const cold = await pooled.start({ sessionId: 'cold-1', environment: { OTHER: 'x' } });
  expect([claimed.status, cold.status]).toEqual(['RUNNING', 'RUNNING']);
  await expect(pooled.pause(cold.id)).resolves.toMatchObject({ status: 'PAUSED' });
  await expect(pooled.resume(cold.id, { environment: { OTHER: 'y' } })).resolves.toMatchObject({
    status: 'RUNNING',
  });
  await pooled.stop(cold.id);
  await until(async () => (await pooled.health()).warm?.default === 1, 'the pool to refill');
  await pooled.close();

  // Another runtime on the namespace, its sweep fast: it adopts (and drops) the pool it does not have, pauses the
  // claimed sandbox once idle and deletes it once dead.
  const sweeping = await openRuntime(
    standIn,
    {},
    { lifecycle: { idlePauseMs: 500, deadDeleteMs: 1_000, sweepEveryMs: 100 }, logger: { warn: () => {} } },
  );
  runtime = sweeping;
  await untilStatus(sweeping, claimed.id, (sandbox) => sandbox === undefined || sandbox.status === 'MISSING', 20_000);
  // MISSING from the root's change on; its other objects are deleted right after (the root is kept, saying so).
  const onlyRootLeft = async () => [...objectsOf(standIn, claimed.id).keys()].every((kind) => kind === 'ConfigMap');
  await until(onlyRootLeft, 'the sweep to delete the dead sandbox');
});

afterAll(async () => {
  await runtime?.close();
  await standIn?.close();
});

describe('the Kubernetes permissions of the runtime', () => {
  it('cover every request of a whole lifecycle, each in the sandboxes namespace unless cluster-wide', () => {
    const outside = standIn.requests.filter(({ discovery, rule }) => {
      if (discovery) return false;
      if (!rule) return true;
      const granted = KUBERNETES_PERMISSIONS.find(
        (permission) => permission.apiGroup === rule.apiGroup && permission.resource === rule.resource,
      );
      if (!granted?.verbs.includes(rule.verb)) return true;
      return granted.scope === 'cluster' ? rule.namespace !== undefined : rule.namespace !== NAMESPACE;
    });
    expect(outside).toEqual([]);
    expect(standIn.requests.length).toBeGreaterThan(50);
  });

  it('are exactly what the lifecycle uses: each verb listed was exercised, deletes of every sandbox object among them', () => {
    const used = new Set(
      standIn.requests.flatMap(({ rule }) => (rule ? [pair(rule.apiGroup, rule.resource, rule.verb)] : [])),
    );
    const listed = KUBERNETES_PERMISSIONS.flatMap(({ apiGroup, resource, verbs }) =>
      verbs.map((verb) => pair(apiGroup, resource, verb)),
    );
    expect([...used].sort()).toEqual([...listed].sort());
    for (const permission of KUBERNETES_PERMISSIONS.filter(({ scope }) => scope === 'namespace')) {
      expect(permission.verbs, permission.resource).toContain('delete');
    }
  });

  it('are the table of the README, rule by rule', async () => {
    const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');
    const rows = [...readme.matchAll(/^\| `([^`]*)` \| `([a-z]+)` \| ([a-z, ]+) \| ([a-z]+) \|/gm)].map(
      ([, apiGroup, resource, verbs, scope]) => ({ apiGroup, resource, verbs: verbs!.split(', '), scope }),
    );
    const expected = KUBERNETES_PERMISSIONS.map(({ apiGroup, resource, verbs, scope }) => ({
      apiGroup: apiGroup || '""',
      resource,
      verbs: [...verbs],
      scope,
    }));
    expect(rows).toEqual(expected);
  });
});
