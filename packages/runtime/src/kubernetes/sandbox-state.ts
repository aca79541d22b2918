import type { V1ConfigMap } from '@kubernetes/client-node';
import type { KubeApi } from './kube-api.ts';
import { ANNOTATION, type SandboxState, objectName, selectorOf } from './names.ts';
import { rootOf } from './sandbox-objects.ts';

/**
 * Records a sandbox's state on its root, and when it changed (a replace: a concurrent change of the root is a 409,
 * not lost). `data` replaces the root's data when given (a deleted sandbox keeps none of its spec).
 */
export function settleRoot(
  api: KubeApi,
  root: V1ConfigMap,
  change: { state: SandboxState; detail: string | null; generation?: number; data?: Record<string, string> },
): Promise<V1ConfigMap> {
  const annotations: Record<string, string> = {
    ...root.metadata?.annotations,
    [ANNOTATION.state]: change.state,
    [ANNOTATION.changedAt]: new Date().toISOString(),
  };
  if (change.detail === null) delete annotations[ANNOTATION.statusDetail];
  else annotations[ANNOTATION.statusDetail] = change.detail;
  if (change.generation !== undefined) annotations[ANNOTATION.generation] = String(change.generation);
  const name = objectName(rootOf(root).id);
  return api.replace({
    ...root,
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { ...root.metadata, name, annotations },
    ...(change.data ? { data: change.data } : {}),
  });
}

/** Deletes every pod of the sandbox (its claim and the rest are kept). */
export async function deletePods(api: KubeApi, id: string, graceSeconds: number): Promise<void> {
  const pods = await api.list('v1', 'Pod', { labelSelector: selectorOf(id) });
  await Promise.all(pods.items.map((pod) => api.delete('v1', 'Pod', pod.metadata?.name ?? '', graceSeconds)));
}

/**
 * Pauses a sandbox: an active root is recorded paused (with `detail`) first, then its pods are deleted (its claim
 * kept). In that order, nobody sees an active sandbox without a pod in between (and takes it for one whose pod is
 * gone: ERROR).
 */
export async function pauseSandbox(
  api: KubeApi,
  root: V1ConfigMap,
  detail: string | null,
  graceSeconds: number,
): Promise<void> {
  if (root.metadata?.annotations?.[ANNOTATION.state] === 'active') {
    await settleRoot(api, root, { state: 'paused', detail });
  }
  await deletePods(api, rootOf(root).id, graceSeconds);
}

/** Every child of a sandbox's root but its pods, by API version and kind (all named `objectName(id)`). */
const CHILDREN = [
  ['v1', 'Secret'],
  ['v1', 'PersistentVolumeClaim'],
  ['v1', 'Service'],
  ['networking.k8s.io/v1', 'Ingress'],
  ['networking.k8s.io/v1', 'NetworkPolicy'],
] as const;

/** Deletes the sandbox's pods, then its other children: its root alone is left. */
export async function deleteChildren(api: KubeApi, id: string, graceSeconds: number): Promise<void> {
  await deletePods(api, id, graceSeconds);
  await Promise.all(CHILDREN.map(([apiVersion, kind]) => api.delete(apiVersion, kind, objectName(id))));
}
