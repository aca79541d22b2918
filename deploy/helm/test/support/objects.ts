import type { KubeObject } from './helm.ts';

export interface Probe {
  httpGet?: { path: string; port: string | number };
}
export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string }; configMapKeyRef?: { name: string; key: string } };
}
export interface VolumeMount {
  name: string;
  mountPath: string;
  readOnly?: boolean;
  subPath?: string;
}
export interface Container {
  name: string;
  image: string;
  imagePullPolicy?: string;
  command?: string[];
  args?: string[];
  ports?: { name?: string; containerPort: number }[];
  env?: EnvVar[];
  volumeMounts?: VolumeMount[];
  resources?: { requests?: Record<string, unknown>; limits?: Record<string, unknown> };
  securityContext?: {
    runAsUser?: number;
    runAsGroup?: number;
    allowPrivilegeEscalation?: boolean;
    readOnlyRootFilesystem?: boolean;
    capabilities?: { drop?: string[] };
  };
  livenessProbe?: Probe;
  readinessProbe?: Probe;
}
export interface KeyToPath {
  key: string;
  path: string;
  mode?: number;
}
export interface SecretProjection {
  secret: { name: string; items?: KeyToPath[] };
}
export interface Volume {
  name: string;
  secret?: { secretName: string; items?: KeyToPath[]; defaultMode?: number };
  configMap?: { name: string; items?: KeyToPath[]; defaultMode?: number };
  projected?: { sources: SecretProjection[]; defaultMode?: number };
  emptyDir?: object;
}
export interface PodSpec {
  initContainers?: Container[];
  containers: Container[];
  volumes?: Volume[];
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number; runAsGroup?: number; fsGroup?: number };
  serviceAccountName?: string;
  automountServiceAccountToken?: boolean;
}

/** The pod template of a workload (Deployment, StatefulSet, Job), else undefined. */
export function podSpec(object: KubeObject): PodSpec | undefined {
  const spec = object.spec as { template?: { spec?: PodSpec } } | undefined;
  return spec?.template?.spec;
}

export function env(container: Container, name: string): string | undefined {
  return container.env?.find((variable) => variable.name === name)?.value;
}

/** Objects of one component (the chart's app.kubernetes.io/component label). */
export function ofComponent(objects: readonly KubeObject[], component: string): KubeObject[] {
  return objects.filter((object) => object.metadata.labels?.['app.kubernetes.io/component'] === component);
}

/** The labels of a workload's pods (its pod template's), what Services and NetworkPolicies select. */
export function podLabels(object: KubeObject): Record<string, string> {
  const spec = object.spec as { template?: { metadata?: { labels?: Record<string, string> } } } | undefined;
  return spec?.template?.metadata?.labels ?? {};
}
