import type { V1ConfigMap } from '@kubernetes/client-node';
import type { SweepActions, SweepCandidate } from '../lifecycle.ts';
import type { RuntimeSandbox } from '../runtime.ts';
import type { SerialQueues } from '../serial-queues.ts';
import { sandboxActivity } from './ingress-probe.ts';
import type { KubeApi } from './kube-api.ts';
import type { KubernetesRuntimeConfig } from './kubernetes-config.ts';
import { ANNOTATION, MANAGED, objectName } from './names.ts';
import { type SandboxObjects, snapshot, waitingPool } from './sandbox-objects.ts';
import { deleteChildren, pauseSandbox, settleRoot } from './sandbox-state.ts';

export interface SweepContext {
  api: KubeApi;
  config: KubernetesRuntimeConfig;
  queues: SerialQueues;
  /** Its status as `get` says it (a failed or stuck one recorded ERROR). */
  view(objects: SandboxObjects): Promise<RuntimeSandbox>;
  logger?: { warn(message: string): void } | undefined;
}

/**
 * The lifecycle sweep over a namespace's sandboxes (their roots): no traffic signal (the Ingress's traffic is the
 * ingress controller's, not the runtime's), so one is idle when its agent server, asked through its Ingress with
 * its key, says so. Its pause deletes its pods (the claim kept); its burial deletes every object but the root,
 * which stays `missing` with why (MISSING, like the local backend's record).
 */
export function kubernetesSweepActions(context: SweepContext): SweepActions {
  const { api, config, queues } = context;
  const probe = { timeoutMs: config.probe_timeout_ms, address: config.probe_address };
  const stateOf = (root: V1ConfigMap | undefined) => root?.metadata?.annotations?.[ANNOTATION.state];
  const readRoot = (id: string) => api.read<V1ConfigMap>('v1', 'ConfigMap', objectName(id));
  return {
    async candidates(): Promise<SweepCandidate[]> {
      // Those waiting in a warm pool are meant to wait: never idle, never dead.
      const all = [...(await snapshot(api, MANAGED)).values()].filter(({ root }) => !waitingPool(root));
      return Promise.all(
        all.map(async (objects): Promise<SweepCandidate> => {
          const sandbox = await context.view(objects);
          const annotations = objects.root.metadata?.annotations ?? {};
          const { url, sessionApiKey } = sandbox;
          return {
            id: sandbox.id,
            status: sandbox.status,
            changedAt: annotations[ANNOTATION.changedAt] ?? annotations[ANNOTATION.createdAt] ?? '',
            lastTrafficAt: undefined,
            agentActivity: async () => (url && sessionApiKey ? sandboxActivity(url, sessionApiKey, probe) : undefined),
          };
        }),
      );
    },
    pause: (id, detail) =>
      queues.run(id, async () => {
        const root = await readRoot(id);
        if (!root || stateOf(root) !== 'active') return;
        await pauseSandbox(api, root, detail, config.stop_grace_seconds);
      }),
    bury: (id, detail) =>
      queues.run(id, async () => {
        const root = await readRoot(id);
        if (stateOf(root) !== 'paused' && stateOf(root) !== 'error') return;
        // The root first: from here on it says MISSING and why, whatever of the rest is still being deleted.
        await settleRoot(api, root as V1ConfigMap, { state: 'missing', detail, data: {} });
        await deleteChildren(api, id, config.stop_grace_seconds);
      }),
    failed: (error) => context.logger?.warn(`lifecycle sweep: ${error.message}`),
  };
}
