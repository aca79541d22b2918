import type { KubernetesRuntimeSettings } from '../../../src/kubernetes/kubernetes-config.ts';
import { KubernetesRuntime, type KubernetesRuntimeOptions } from '../../../src/kubernetes/kubernetes-runtime.ts';
import { KINDS, type KubeObject } from './kinds.ts';
import { KubeStandIn } from './kube-stand-in.ts';

export const NAMESPACE = 'bosun-sandboxes';
export const APP_NAMESPACE = 'bosun';
export const BASE = 'sandboxes.bosun.test';

/** Settings for a runtime over the stand-in: sandboxes checked through its ingress controller. */
export function settingsFor(
  standIn: KubeStandIn,
  extra: Partial<KubernetesRuntimeSettings> = {},
): KubernetesRuntimeSettings {
  return {
    namespace: NAMESPACE,
    app_namespace: APP_NAMESPACE,
    image: 'ghcr.io/bosun/bosun:test',
    runtime_base_url: BASE,
    runtime_disable_ssl: true,
    probe_address: standIn.ingressAddress,
    storage_class: 'fast',
    egress: [{ namespace: APP_NAMESPACE, pod_labels: { 'app.kubernetes.io/name': 'llm-proxy' }, ports: [4000] }],
    ...extra,
  };
}

export async function openRuntime(
  standIn: KubeStandIn,
  extra: Partial<KubernetesRuntimeSettings> = {},
  options: Partial<KubernetesRuntimeOptions> = {},
): Promise<KubernetesRuntime> {
  return KubernetesRuntime.open({
    settings: settingsFor(standIn, extra),
    kubeConfig: standIn.kubeConfig(),
    pollMs: 25,
    ...options,
  });
}

export function startStandIn(): Promise<KubeStandIn> {
  return KubeStandIn.start([NAMESPACE, APP_NAMESPACE], ['fast']);
}

/** The objects of sandbox `id` in the stand-in, by kind. */
export function objectsOf(standIn: KubeStandIn, id: string): Map<string, KubeObject[]> {
  const byKind = new Map<string, KubeObject[]>();
  for (const { kind, object } of standIn.store.all()) {
    if (object.metadata.labels?.['bosun.dev/runtime-id'] !== id) continue;
    byKind.set(kind, [...(byKind.get(kind) ?? []), object]);
  }
  return byKind;
}

/** Validates every stored object again with its kubernetes-models class: throws on the first invalid one. */
export function validateAll(standIn: KubeStandIn): number {
  const all = standIn.store.all();
  for (const { kind, object } of all) KINDS.find((candidate) => candidate.kind === kind)!.validate(object);
  return all.length;
}

// biome-ignore lint/suspicious/noExplicitAny: tests read wire JSON loosely and assert on it.
export type Wire = any;
