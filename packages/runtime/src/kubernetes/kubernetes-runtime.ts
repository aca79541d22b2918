import { randomUUID } from 'node:crypto';
import type { KubeConfig, V1ConfigMap } from '@kubernetes/client-node';
import { SandboxConflictError, SandboxNotFoundError, SandboxSpecError } from '../errors.ts';
import { type LifecycleOptions, Sweeper } from '../lifecycle.ts';
import type { ResumeRefresh, Runtime, RuntimeHealth, RuntimeSandbox, SandboxStartSpec } from '../runtime.ts';
import { SerialQueues } from '../serial-queues.ts';
import { newSessionKey } from '../session-keys.ts';
import { type WarmPoolConfig, warmSessionId } from '../warm-pools.ts';
import type { KubeApi } from './kube-api.ts';
import { KubeError } from './kube-error.ts';
import { type KubeSpec, kubeSpecOf } from './kube-spec.ts';
import {
  type KubernetesRuntimeConfig,
  type KubernetesRuntimeSettings,
  kubernetesConfigOf,
} from './kubernetes-config.ts';
import { kubernetesGuarantees } from './kubernetes-health.ts';
import { rootConfigMap } from './manifests.ts';
import { ANNOTATION, MANAGED, type SandboxState, objectName, podName, selectorOf } from './names.ts';
import { recordSpec, resumeSpec } from './resume-spec.ts';
import { LaunchAbandoned, type LaunchContext, LaunchFailure, launchSandbox } from './sandbox-launch.ts';
import {
  type SandboxObjects,
  byCreation,
  claimedSnapshot,
  rootOf,
  rootOfSession,
  snapshot,
  waitingPool,
} from './sandbox-objects.ts';
import { deletePods, pauseSandbox, settleRoot } from './sandbox-state.ts';
import { kubernetesSweepActions } from './sandbox-sweep.ts';
import { SandboxUrls } from './sandbox-urls.ts';
import { type ViewContext, viewOf } from './sandbox-view.ts';
import { KubeWarmKeeper, kubePools } from './warm-keeper.ts';

export interface KubernetesRuntimeOptions {
  settings: KubernetesRuntimeSettings;
  /** The cluster and credentials; default: `settings.kubeconfig`, else in-cluster, else ~/.kube/config. */
  kubeConfig?: KubeConfig;
  /** How often a starting sandbox's claim, URL and deadlines are checked (its pod is watched). Default 1000. */
  pollMs?: number;
  /** Idle sandboxes paused, long-dead ones deleted (MISSING with why), by the runtime itself; absent: never. */
  lifecycle?: LifecycleOptions;
  /** Sandboxes started ahead of time, per shape (`servesWarm` says which starts one serves). */
  warmPools?: readonly WarmPoolConfig[];
  logger?: { warn(message: string): void };
}

/** A sandbox id (what `start` makes): anything else is unknown, and never reaches a path or a selector. */
const ID = /^[0-9a-f]{32}$/;

/**
 * Sandboxes as Kubernetes objects in one namespace (see README.md, "Kubernetes backend"): per sandbox a root
 * ConfigMap (its spec and state) owning a Secret (environment and session key), a PersistentVolumeClaim (its
 * workspace), a Service, an Ingress, a NetworkPolicy and its pod. The objects are the state: a new runtime over the
 * same namespace knows every sandbox.
 */
export class KubernetesRuntime implements Runtime {
  private readonly queues = new SerialQueues();
  private readonly launching = new Set<string>();
  private closing = false;

  private readonly launch: LaunchContext;
  private readonly viewing: ViewContext;
  private readonly sweeper: Sweeper;
  private readonly warm: KubeWarmKeeper;

  private constructor(
    private readonly api: KubeApi,
    config: KubernetesRuntimeConfig,
    urls: SandboxUrls,
    pollMs: number,
    private readonly logger: KubernetesRuntimeOptions['logger'],
    lifecycle: LifecycleOptions,
    warmPools: readonly WarmPoolConfig[],
  ) {
    this.launch = { api, config, urls, pollMs, closed: () => this.closing };
    this.viewing = { config, urls, starting: (id) => this.launching.has(id) };
    const view = (objects: SandboxObjects) => this.viewAndReap(objects);
    this.sweeper = new Sweeper(lifecycle, kubernetesSweepActions({ api, config, queues: this.queues, view, logger }));
    this.warm = new KubeWarmKeeper(kubePools(warmPools, config), {
      ...{ api, queues: this.queues, viewing: this.viewing, logger },
      startWaiting: (shape, pool) => this.startSandbox(shape, pool),
      closing: () => this.closing,
    });
  }

  /**
   * Checks the settings (the URL pattern against the base: a mismatch names both) and that the namespace's
   * sandboxes can be listed (a missing permission is a startup error, not a failure at the first start).
   */
  static async open(options: KubernetesRuntimeOptions): Promise<KubernetesRuntime> {
    const config = kubernetesConfigOf(options.settings);
    const urls = new SandboxUrls(config);
    // Loaded on first use: what runs no Kubernetes backend never loads the client.
    const client = await import('@kubernetes/client-node');
    const { KubeApi, loadKubeConfig } = await import('./kube-api.ts');
    const kubeConfig = options.kubeConfig ?? loadKubeConfig(client, config.kubeconfig);
    const api = new KubeApi(client, kubeConfig, config.namespace);
    await api.list('v1', 'ConfigMap', { labelSelector: MANAGED });
    const { pollMs = 1000, logger, lifecycle = {}, warmPools = [] } = options;
    const runtime = new KubernetesRuntime(api, config, urls, pollMs, logger, lifecycle, warmPools);
    await runtime.warm.adopt();
    runtime.warm.refill();
    return runtime;
  }

  async start(request: SandboxStartSpec): Promise<RuntimeSandbox> {
    const spec = kubeSpecOf(request, this.launch.config);
    const live = await rootOfSession(this.api, spec.sessionId);
    if (live) {
      throw new SandboxSpecError(`session_id: sandbox ${rootOf(live).id} already has session ${spec.sessionId}`);
    }
    return (await this.warm.claim(spec)) ?? this.startSandbox(spec);
  }

  /** A new sandbox of `spec`, the caller's, or (with `pool`) waiting in that warm pool under a session id of its own. */
  private async startSandbox(spec: KubeSpec, pool?: string): Promise<RuntimeSandbox> {
    const id = randomUUID().replaceAll('-', '');
    const own = pool === undefined ? spec : { ...spec, sessionId: warmSessionId(pool, id) };
    this.launching.add(id);
    try {
      const root = rootConfigMap(this.api.namespace, id, own, new Date().toISOString(), pool);
      const created = await this.api.create(root);
      return await this.queues.run(id, () => this.run(created, own, own.environment, 1));
    } finally {
      this.launching.delete(id);
    }
  }

  stop(id: string): Promise<void> {
    return this.queues.run(id, async () => {
      await this.claimedObjects(id);
      // The garbage collector deletes its children (owner references), its pod and claim included.
      if (!(await this.api.delete('v1', 'ConfigMap', objectName(id)))) throw new SandboxNotFoundError(id);
    });
  }

  pause(id: string): Promise<RuntimeSandbox> {
    return this.queues.run(id, async () => {
      const objects = await this.claimedObjects(id);
      await pauseSandbox(this.api, objects.root, null, this.launch.config.stop_grace_seconds);
      return this.view(id);
    });
  }

  /** With `refresh`, its root's spec, Secret and NetworkPolicy take the new environment and network first. */
  resume(id: string, refresh?: ResumeRefresh): Promise<RuntimeSandbox> {
    return this.queues.run(id, async () => {
      await this.claimedObjects(id);
      const current = await this.view(id);
      if (current.status !== 'PAUSED' && current.status !== 'ERROR') {
        const why = `sandbox ${id} is ${current.status}: only a PAUSED or ERROR one resumes`;
        throw new SandboxConflictError(why, current.status);
      }
      const objects = await this.objects(id);
      const spec = resumeSpec(objects, refresh, this.launch.config);
      await this.deletePods(objects);
      const generation = Number(objects.root.metadata?.annotations?.[ANNOTATION.generation] ?? 1) + 1;
      const root = refresh ? await recordSpec(this.api, objects.root, spec) : objects.root;
      this.launching.add(id);
      try {
        return await this.run(root, spec, spec.environment, generation);
      } finally {
        this.launching.delete(id);
      }
    });
  }

  async get(id: string): Promise<RuntimeSandbox | undefined> {
    if (!ID.test(id)) return undefined;
    const objects = (await snapshot(this.api, selectorOf(id))).get(id);
    return objects && !waitingPool(objects.root) ? this.viewAndReap(objects) : undefined;
  }

  async getBySession(sessionId: string): Promise<RuntimeSandbox | undefined> {
    return (await this.getManyBySession([sessionId]))[0];
  }

  async getManyBySession(sessionIds: readonly string[]): Promise<(RuntimeSandbox | undefined)[]> {
    const all = await claimedSnapshot(this.api);
    return Promise.all(
      sessionIds.map((sessionId) => {
        const objects = all.find(({ root }) => rootOf(root).sessionId === sessionId);
        return objects && this.viewAndReap(objects);
      }),
    );
  }

  async list(): Promise<RuntimeSandbox[]> {
    const all = (await claimedSnapshot(this.api)).sort((a, b) => byCreation(a.root, b.root));
    const views = await Promise.all(all.map((objects) => this.viewAndReap(objects)));
    return views.filter(({ status }) => status === 'STARTING' || status === 'RUNNING');
  }

  async health(): Promise<RuntimeHealth> {
    const running = (await this.list()).filter(({ status }) => status === 'RUNNING').length;
    return { ...kubernetesGuarantees(this.launch.config), running, warm: await this.warm.counts() };
  }

  /**
   * A warm pool added once the runtime runs (e.g. by an app whose sandboxes' environment names its own URL);
   * filled in the background. Throws for a bad pool or a name already taken.
   */
  addWarmPool(config: WarmPoolConfig): void {
    const [pool] = kubePools([config], this.launch.config);
    if (pool) this.warm.add(pool);
  }

  /** The warm pools, as `/api/warm-runtime-configs` answers them. */
  warmConfigs() {
    return this.warm.wire();
  }

  /** Sandboxes outlive the runtime (they are the cluster's): closing only stops waiting for starts and sweeping. */
  async close(): Promise<void> {
    this.closing = true;
    await this.sweeper.stop();
    await this.warm.idle();
    await this.queues.idle();
  }

  /** Makes its objects and pod with a new key; RUNNING, or ERROR (without a pod) saying why not. */
  private async run(
    root: V1ConfigMap,
    spec: KubeSpec,
    environment: Record<string, string>,
    generation: number,
  ): Promise<RuntimeSandbox> {
    const settled = await this.settle(root, 'active', null, generation);
    const { id } = rootOf(settled);
    try {
      await launchSandbox(this.launch, rootOf(settled), { ...spec, environment }, newSessionKey(), generation);
    } catch (error) {
      if (error instanceof LaunchAbandoned) return this.view(id);
      if (!(error instanceof LaunchFailure || error instanceof KubeError)) throw error;
      await this.api.delete('v1', 'Pod', podName(id, generation), 0).catch(() => false);
      await this.settle(await this.rootNow(id), 'error', error.message);
    }
    this.launching.delete(id);
    return this.view(id);
  }

  private async view(id: string): Promise<RuntimeSandbox> {
    const objects = await this.objects(id);
    return (await viewOf(objects, this.viewing)).sandbox;
  }

  /**
   * Its view; one found failed or stuck is recorded ERROR (its pod deleted) without waiting for that, unless its
   * root changed since it was seen (a pause or resume came first: what was seen is no longer so).
   */
  private async viewAndReap(objects: SandboxObjects): Promise<RuntimeSandbox> {
    const { sandbox, reap } = await viewOf(objects, this.viewing);
    if (reap) {
      void this.queues
        .run(sandbox.id, async () => {
          const root = await this.rootNow(sandbox.id);
          if (root.metadata?.resourceVersion !== objects.root.metadata?.resourceVersion) return;
          await this.deletePods(objects);
          await this.settle(root, 'error', reap);
        })
        .catch((error: Error) => this.logger?.warn(`sandbox ${sandbox.id} could not be reaped: ${error.message}`));
    }
    return sandbox;
  }

  /** A caller's sandbox (one waiting in a warm pool is nobody's yet: not found). */
  private async claimedObjects(id: string): Promise<SandboxObjects> {
    const objects = await this.objects(id);
    if (waitingPool(objects.root) !== undefined) throw new SandboxNotFoundError(id);
    return objects;
  }

  private async objects(id: string): Promise<SandboxObjects> {
    if (!ID.test(id)) throw new SandboxNotFoundError(id);
    const objects = (await snapshot(this.api, selectorOf(id))).get(id);
    if (!objects) throw new SandboxNotFoundError(id);
    return objects;
  }

  private async rootNow(id: string): Promise<V1ConfigMap> {
    const root = await this.api.read<V1ConfigMap>('v1', 'ConfigMap', objectName(id));
    if (!root) throw new SandboxNotFoundError(id);
    return root;
  }

  private deletePods(objects: SandboxObjects): Promise<void> {
    return deletePods(this.api, rootOf(objects.root).id, this.launch.config.stop_grace_seconds);
  }

  private settle(root: V1ConfigMap, state: SandboxState, detail: string | null, generation?: number) {
    return settleRoot(this.api, root, { state, detail, ...(generation === undefined ? {} : { generation }) });
  }
}
