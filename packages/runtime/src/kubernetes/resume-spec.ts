import type { V1ConfigMap } from '@kubernetes/client-node';
import type { ResumeRefresh } from '../runtime.ts';
import { refreshedRequest } from '../spec.ts';
import type { KubeApi } from './kube-api.ts';
import { type KubeSpec, kubeSpecOf } from './kube-spec.ts';
import type { KubernetesRuntimeConfig } from './kubernetes-config.ts';
import { objectName } from './names.ts';
import { type SandboxObjects, environmentOf, rootOf } from './sandbox-objects.ts';

/**
 * What a resume runs: the spec its root keeps with the environment its Secret holds, or, with `refresh`, that spec
 * with the refresh's environment and network, checked as a start's (a SandboxSpecError before anything changed).
 */
export function resumeSpec(
  objects: SandboxObjects,
  refresh: ResumeRefresh | undefined,
  config: KubernetesRuntimeConfig,
): KubeSpec {
  const kept = JSON.parse(objects.root.data?.['spec.json'] ?? '{}') as KubeSpec;
  const spec = { ...kept, environment: environmentOf(objects.secret) };
  return refresh ? kubeSpecOf(refreshedRequest(spec, refresh), config) : spec;
}

/**
 * The root with `spec` as its `spec.json` (never its environment, which its Secret holds), so that later resumes and
 * a runtime opened later run it: replaced, so a concurrent change of the root is a 409, not lost.
 */
export function recordSpec(api: KubeApi, root: V1ConfigMap, spec: KubeSpec): Promise<V1ConfigMap> {
  return api.replace({
    ...root,
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { ...root.metadata, name: objectName(rootOf(root).id) },
    data: { ...root.data, 'spec.json': JSON.stringify({ ...spec, environment: undefined }) },
  });
}
