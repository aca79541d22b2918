import { isDeepStrictEqual } from 'node:util';
import type { V1ConfigMap, V1Secret } from '@kubernetes/client-node';
import type { RuntimeSandbox } from '../runtime.ts';
import {
  type WarmHostBase,
  WarmKeeperBase,
  type WarmPool,
  type WarmPoolConfig,
  resolvePools,
  servesWarm,
  warmConfigWire,
} from '../warm-pools.ts';
import type { KubeApi } from './kube-api.ts';
import { KubeError } from './kube-error.ts';
import { type KubeSpec, kubeSpecOf } from './kube-spec.ts';
import type { KubernetesRuntimeConfig } from './kubernetes-config.ts';
import { claimedRoot } from './manifests.ts';
import { LABEL, MANAGED, objectName, selectorOf } from './names.ts';
import { byCreation, environmentOf, rootOf, snapshot, waitingPool } from './sandbox-objects.ts';
import { type ViewContext, viewOf } from './sandbox-view.ts';

/** What the keeper needs of the runtime. */
export interface KubeWarmHost extends WarmHostBase {
  api: KubeApi;
  viewing: ViewContext;
  /** Starts a sandbox of `shape` waiting in pool `pool`; answers once it is RUNNING or is not going to be. */
  startWaiting(shape: KubeSpec, pool: string): Promise<RuntimeSandbox>;
}

/**
 * Keeps each warm pool of a Kubernetes runtime full and hands its sandboxes out. A waiting sandbox is a complete
 * one whose root has the pool's label; the cluster's objects are the pool, so a runtime opened later finds it.
 */
export class KubeWarmKeeper extends WarmKeeperBase<KubeSpec, KubeWarmHost> {
  /**
   * A RUNNING waiting sandbox whose pool serves `spec`, now the caller's: its root leaves the pool in one replace
   * carrying the resourceVersion it was seen with, so of two claims of it one wins and the other tries the next
   * (none left: undefined, a cold start). Its pool is refilled in the background once the claim is answered (or
   * found none).
   */
  async claim(spec: KubeSpec): Promise<RuntimeSandbox | undefined> {
    const pool = this.pools.find(({ shape }) => servesWarm(spec, shape));
    if (!pool) return undefined;
    for (const root of await this.rootsOf(pool.name)) {
      const { id } = rootOf(root);
      if (this.host.viewing.starting(id)) continue;
      const claimed = await this.host.queues.run(id, () => this.claimOne(id, spec.sessionId));
      if (!claimed) continue;
      setImmediate(() => this.refill());
      return claimed;
    }
    // None ready: members that failed while waiting are replaced (nothing watches them in between).
    setImmediate(() => this.refill());
    return undefined;
  }

  /** Also removes members that died while waiting. */
  protected async fill(): Promise<void> {
    for (const pool of this.pools) {
      let members = await this.liveMembers(pool.name);
      while (!this.host.closing() && members < pool.count) {
        const sandbox = await this.host.startWaiting(pool.shape, pool.name);
        if (this.host.closing()) return;
        // A pool whose shape cannot start waits for the next claim rather than trying forever.
        if (sandbox.status !== 'RUNNING') {
          this.host.logger?.warn(`warm pool ${pool.name}: a sandbox did not start: ${sandbox.statusDetail}`);
          await this.remove(sandbox.id);
          return;
        }
        members += 1;
      }
    }
  }

  /**
   * At open: each waiting sandbox a previous runtime left is kept if its pool is configured with the same shape
   * (up to the pool's count), else deleted.
   */
  async adopt(): Promise<void> {
    const { api } = this.host;
    const roots = await api.list<V1ConfigMap>('v1', 'ConfigMap', { labelSelector: `${MANAGED},${LABEL.warmPool}` });
    const kept = new Map<string, number>();
    for (const root of roots.items.sort(byCreation)) {
      const { id } = rootOf(root);
      const pool = this.pools.find(({ name }) => name === waitingPool(root));
      const secret = pool && (await api.read<V1Secret>('v1', 'Secret', objectName(id)));
      const spec = { ...(JSON.parse(root.data?.['spec.json'] ?? '{}') as object), environment: environmentOf(secret) };
      const count = kept.get(pool?.name ?? '') ?? 0;
      if (pool && secret && count < pool.count && sameShape(spec as KubeSpec, pool.shape)) {
        kept.set(pool.name, count + 1);
      } else {
        await this.remove(id);
      }
    }
  }

  /** The pools as `/api/warm-runtime-configs` answers them (with the image this backend runs). */
  wire() {
    return this.pools.map((pool) => {
      const { image, runAsUser, runAsGroup } = pool.shape;
      return warmConfigWire(pool, { image, run_as_user: runAsUser, run_as_group: runAsGroup });
    });
  }

  /** How many sandboxes are ready (RUNNING) in each pool. */
  async counts(): Promise<Record<string, number>> {
    const all = [...(await snapshot(this.host.api, MANAGED)).values()];
    const counts: Record<string, number> = Object.fromEntries(this.pools.map(({ name }) => [name, 0]));
    await Promise.all(
      all.map(async (objects) => {
        const pool = waitingPool(objects.root);
        if (pool === undefined || !(pool in counts)) return;
        if ((await viewOf(objects, this.host.viewing)).sandbox.status === 'RUNNING') counts[pool] = counts[pool]! + 1;
      }),
    );
    return counts;
  }

  private async claimOne(id: string, sessionId: string): Promise<RuntimeSandbox | undefined> {
    const objects = (await snapshot(this.host.api, selectorOf(id))).get(id);
    if (!objects || waitingPool(objects.root) === undefined) return undefined;
    const { sandbox } = await viewOf(objects, this.host.viewing);
    if (sandbox.status !== 'RUNNING') return undefined;
    try {
      await this.host.api.replace(claimedRoot(objects.root, sessionId));
    } catch (error) {
      // Claimed (or changed) by someone else since it was seen.
      if (error instanceof KubeError && error.code === 409) return undefined;
      throw error;
    }
    return { ...sandbox, sessionId };
  }

  /** The pool's sandboxes that are starting or running; the others (failed while waiting) are deleted. */
  private async liveMembers(pool: string): Promise<number> {
    let live = 0;
    for (const root of await this.rootsOf(pool)) {
      const { id } = rootOf(root);
      const objects = (await snapshot(this.host.api, selectorOf(id))).get(id);
      const status = objects && (await viewOf(objects, this.host.viewing)).sandbox.status;
      if (status === 'RUNNING' || status === 'STARTING') live += 1;
      else await this.remove(id);
    }
    return live;
  }

  /** The roots waiting in `pool`, oldest first. */
  private async rootsOf(pool: string): Promise<V1ConfigMap[]> {
    const query = { labelSelector: `${MANAGED},${LABEL.warmPool}=${pool}` };
    return (await this.host.api.list<V1ConfigMap>('v1', 'ConfigMap', query)).items.sort(byCreation);
  }

  /** Deletes a waiting sandbox (its root; the garbage collector deletes the rest), unless it was claimed since. */
  private remove(id: string): Promise<void> {
    return this.host.queues.run(id, async () => {
      const root = await this.host.api.read<V1ConfigMap>('v1', 'ConfigMap', objectName(id));
      if (root && waitingPool(root) !== undefined) await this.host.api.delete('v1', 'ConfigMap', objectName(id));
    });
  }
}

/** A label value: the pool's name is on its waiting sandboxes' roots. */
const LABEL_VALUE = /^[A-Za-z0-9]([A-Za-z0-9_.-]{0,61}[A-Za-z0-9])?$/;

/** The pools with the backend's defaults applied to their shapes; a bad one is refused by name. */
export function kubePools(configs: readonly WarmPoolConfig[], config: KubernetesRuntimeConfig): WarmPool<KubeSpec>[] {
  const pools = resolvePools(configs, (spec) => kubeSpecOf(spec, config));
  const unlabelled = pools.find(({ name }) => !LABEL_VALUE.test(name));
  if (unlabelled) {
    throw new Error(`warm pool ${unlabelled.name}: at most 63 characters, a letter or digit first and last (a label)`);
  }
  return pools;
}

/** Whether a sandbox was started with exactly a pool's shape (all but its session id). */
function sameShape(spec: KubeSpec, shape: KubeSpec): boolean {
  return isDeepStrictEqual({ ...spec, sessionId: '' }, { ...shape, sessionId: '' });
}
