import type { V1PersistentVolumeClaim, V1Pod, V1StorageClass } from '@kubernetes/client-node';
import { probeSandbox } from './ingress-probe.ts';
import type { KubeApi } from './kube-api.ts';
import type { KubeSpec } from './kube-spec.ts';
import type { KubernetesRuntimeConfig } from './kubernetes-config.ts';
import { sandboxIngress, sandboxService, sessionSecret, workspaceClaim } from './manifests.ts';
import { type Root, objectName, selectorOf } from './names.ts';
import { sandboxNetworkPolicy } from './network-policy.ts';
import { claimProblem, podHealth } from './pod-health.ts';
import { sandboxPod } from './pod-manifest.ts';
import { ensureChild } from './sandbox-objects.ts';
import type { SandboxUrls } from './sandbox-urls.ts';

export interface LaunchContext {
  api: KubeApi;
  config: KubernetesRuntimeConfig;
  urls: SandboxUrls;
  /** Re-checks what is not watched (the claim, the URL, deadlines) this often. */
  pollMs: number;
  closed: () => boolean;
}

/** Why a sandbox did not become RUNNING: it is then ERROR with this as its detail, and has no pod. */
export class LaunchFailure extends Error {}

/** The runtime stopped waiting (it is closing): the sandbox is left as it is, for the next runtime to see. */
export class LaunchAbandoned extends Error {}

/**
 * Creates (or adopts) every object of the sandbox, its pod last, then waits until the pod is Ready and its URL
 * answers: resolves, or throws a LaunchFailure saying why not (a missing storage class, an unbound claim, an
 * unschedulable pod, an image that cannot be pulled, a deadline).
 */
export async function launchSandbox(
  context: LaunchContext,
  root: Root,
  spec: KubeSpec,
  key: string,
  generation: number,
): Promise<void> {
  const { api, config } = context;
  await ensureChild(api, root, sessionSecret(root, spec.environment, key), 'replace');
  // The claim first: a sandbox without one would be MISSING rather than ERROR with the reason below.
  await ensureChild(api, root, workspaceClaim(root, config), 'keep');
  if (config.storage_class) {
    const found = await api.readCluster<V1StorageClass>('storage.k8s.io/v1', 'StorageClass', config.storage_class);
    if (!found) {
      throw new LaunchFailure(
        `storage class ${config.storage_class} (STORAGE_CLASS) does not exist in the cluster: its workspace claim could never be bound`,
      );
    }
  }
  await ensureChild(api, root, sandboxService(root), 'keep');
  await ensureChild(api, root, sandboxIngress(root, config, context.urls.hostOf(root.id)), 'keep');
  // Replaced: a resume may have given the sandbox another network.
  await ensureChild(api, root, sandboxNetworkPolicy(root, spec, config), 'replace');
  await api.create(sandboxPod(root, spec, config, generation));
  await waitUntilRunning(context, root);
}

async function waitUntilRunning(context: LaunchContext, root: Root): Promise<void> {
  const { api, config } = context;
  const started = Date.now();
  const pods = await api.list<V1Pod>('v1', 'Pod', { labelSelector: selectorOf(root.id) });
  let pod = pods.items.find(isLive);
  let wake: () => void = () => {};
  const watch = await api.watch<V1Pod>(
    'pods',
    { labelSelector: selectorOf(root.id), resourceVersion: pods.resourceVersion },
    (event) => {
      if ((event.type === 'ADDED' || event.type === 'MODIFIED') && isLive(event.object)) pod = event.object;
      if (event.type === 'DELETED' && event.object.metadata?.name === pod?.metadata?.name) pod = undefined;
      wake();
    },
  );
  // A watch that ends (the API server closes them after a while) leaves the loop to poll the pod itself.
  let watching = true;
  void watch.ended.then(() => {
    watching = false;
    wake();
  });
  try {
    let waitingFor = 'its pod to be created';
    for (;;) {
      if (context.closed()) throw new LaunchAbandoned('the runtime is closing');
      if (!watching) pod = await livePod(api, root.id);
      const now = Date.now();
      const health = podHealth(pod);
      if (health.kind === 'failed') throw new LaunchFailure(health.detail);
      if (health.kind === 'unschedulable' && now - health.since >= config.unschedulable_timeout_ms) {
        throw new LaunchFailure(
          `${health.detail} (reaped after ${Math.round(config.unschedulable_timeout_ms / 1000)} s)`,
        );
      }
      const claim = await api.read<V1PersistentVolumeClaim>('v1', 'PersistentVolumeClaim', objectName(root.id));
      const unbound = claimProblem(claim, config.volume_bind_timeout_ms, now);
      if (unbound) throw new LaunchFailure(unbound);
      if (health.kind === 'ready') {
        const unreachable = await probeSandbox(context.urls.urlOf(root.id), {
          timeoutMs: config.probe_timeout_ms,
          address: config.probe_address,
        });
        if (!unreachable) return;
        waitingFor = `its pod is ready but its URL is not: ${unreachable}`;
      } else {
        waitingFor = health.detail;
      }
      if (now - started >= config.start_timeout_ms) {
        throw new LaunchFailure(`not RUNNING after ${Math.round(config.start_timeout_ms / 1000)} s: ${waitingFor}`);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, context.pollMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  } finally {
    watch.stop();
  }
}

const isLive = (pod: V1Pod) => !pod.metadata?.deletionTimestamp;

async function livePod(api: KubeApi, id: string): Promise<V1Pod | undefined> {
  return (await api.list<V1Pod>('v1', 'Pod', { labelSelector: selectorOf(id) })).items.find(isLive);
}
