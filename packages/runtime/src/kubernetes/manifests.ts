import type { V1ConfigMap, V1Ingress, V1PersistentVolumeClaim, V1Secret, V1Service } from '@kubernetes/client-node';
import type { Named } from './kube-api.ts';
import type { KubeSpec } from './kube-spec.ts';
import type { KubernetesRuntimeConfig } from './kubernetes-config.ts';
import {
  ANNOTATION,
  LABEL,
  type Root,
  SESSION_KEY_VARIABLE,
  type SandboxState,
  childMeta,
  labelsOf,
  objectName,
  sessionLabel,
} from './names.ts';

/**
 * The sandbox's root: its spec (nothing secret) and lifecycle state; every other object of it is its child. With
 * `pool`, it waits in that warm pool (a label) until a start claims it.
 */
export function rootConfigMap(
  namespace: string,
  id: string,
  spec: KubeSpec,
  createdAt: string,
  pool?: string,
): V1ConfigMap & Named {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: objectName(id),
      namespace,
      labels: { ...labelsOf(id, spec.sessionId), ...(pool === undefined ? {} : { [LABEL.warmPool]: pool }) },
      annotations: {
        [ANNOTATION.sessionId]: spec.sessionId,
        [ANNOTATION.state]: 'active' satisfies SandboxState,
        [ANNOTATION.createdAt]: createdAt,
        [ANNOTATION.changedAt]: createdAt,
        [ANNOTATION.generation]: '1',
      },
    },
    data: { 'spec.json': JSON.stringify({ ...spec, environment: undefined }) },
  };
}

/**
 * A waiting sandbox's root as the caller's: out of its pool, under `sessionId` (label, annotation and spec), its
 * lifecycle clock restarted. Its resourceVersion is kept, so of two claims of it only one is accepted.
 */
export function claimedRoot(root: V1ConfigMap, sessionId: string): V1ConfigMap & Named {
  const metadata = root.metadata ?? {};
  const labels: Record<string, string> = { ...metadata.labels, [LABEL.session]: sessionLabel(sessionId) };
  delete labels[LABEL.warmPool];
  const spec = { ...(JSON.parse(root.data?.['spec.json'] ?? '{}') as object), sessionId };
  return {
    ...root,
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      ...metadata,
      name: metadata.name ?? '',
      labels,
      annotations: {
        ...metadata.annotations,
        [ANNOTATION.sessionId]: sessionId,
        [ANNOTATION.changedAt]: new Date().toISOString(),
      },
    },
    data: { ...root.data, 'spec.json': JSON.stringify(spec) },
  };
}

/** Its environment and session key: the pod's variables come from here (`envFrom`), never from the pod spec. */
export function sessionSecret(
  root: Root,
  environment: Readonly<Record<string, string>>,
  key: string,
): V1Secret & Named {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: childMeta(root),
    type: 'Opaque',
    stringData: { ...environment, [SESSION_KEY_VARIABLE]: key },
  };
}

export function workspaceClaim(root: Root, config: KubernetesRuntimeConfig): V1PersistentVolumeClaim & Named {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: childMeta(root),
    spec: {
      accessModes: ['ReadWriteOnce'],
      ...(config.storage_class ? { storageClassName: config.storage_class } : {}),
      resources: { requests: { storage: config.storage_size } },
    },
  };
}

export const SERVICE_PORT = 80;

export function sandboxService(root: Root): V1Service & Named {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: childMeta(root),
    spec: {
      type: 'ClusterIP',
      selector: { [LABEL.runtimeId]: root.id },
      ports: [{ name: 'http', port: SERVICE_PORT, targetPort: 'http', protocol: 'TCP' }],
    },
  };
}

export function sandboxIngress(root: Root, config: KubernetesRuntimeConfig, host: string): V1Ingress & Named {
  const meta = childMeta(root);
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: { ...meta, annotations: { ...config.ingress_annotations } },
    spec: {
      ...(config.ingress_class ? { ingressClassName: config.ingress_class } : {}),
      ...(config.ingress_tls_secret ? { tls: [{ hosts: [host], secretName: config.ingress_tls_secret }] } : {}),
      rules: [
        {
          host,
          http: {
            paths: [
              {
                path: '/',
                pathType: 'Prefix',
                backend: { service: { name: objectName(root.id), port: { number: SERVICE_PORT } } },
              },
            ],
          },
        },
      ],
    },
  };
}
