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
} from './names.ts';

/** The sandbox's root: its spec (nothing secret) and lifecycle state; every other object of it is its child. */
export function rootConfigMap(namespace: string, id: string, spec: KubeSpec, createdAt: string): V1ConfigMap & Named {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: objectName(id),
      namespace,
      labels: labelsOf(id, spec.sessionId),
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
