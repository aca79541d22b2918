import type { KubeObject } from './helm.ts';

export interface Probe {
  httpGet?: { path: string; port: string | number };
}
export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string } };
}
export interface Container {
  name: string;
  image: string;
  args?: string[];
  env?: EnvVar[];
  volumeMounts?: { name: string; mountPath: string }[];
  resources?: { requests?: Record<string, unknown>; limits?: Record<string, unknown> };
  securityContext?: {
    allowPrivilegeEscalation?: boolean;
    readOnlyRootFilesystem?: boolean;
    capabilities?: { drop?: string[] };
  };
  livenessProbe?: Probe;
  readinessProbe?: Probe;
}
export interface SecretProjection {
  secret: { name: string; items?: { key: string; path: string }[] };
}
export interface Volume {
  name: string;
  secret?: { secretName: string; items?: { key: string; path: string }[] };
  projected?: { sources: SecretProjection[] };
}
export interface PodSpec {
  initContainers?: Container[];
  containers: Container[];
  volumes?: Volume[];
  securityContext?: { runAsNonRoot?: boolean };
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
