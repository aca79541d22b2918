import type { V1Pod } from '@kubernetes/client-node';
import type { Named } from './kube-api.ts';
import type { KubeSpec } from './kube-spec.ts';
import { POD_PATHS } from './kube-spec.ts';
import type { KubernetesRuntimeConfig } from './kubernetes-config.ts';
import { type Root, childMeta, objectName, podName } from './names.ts';

export const CONTAINER = 'agent-server';

/**
 * The sandbox's pod: the agent server as its own non-root user, no privilege escalation, no capability, a
 * read-only root file system (its workspace and data on the claim, its home and /tmp in memory-backed scratch), no
 * service-account token and no service links (nothing of the cluster in its environment), its variables and key
 * from its Secret.
 */
export function sandboxPod(
  root: Root,
  spec: KubeSpec,
  config: KubernetesRuntimeConfig,
  generation: number,
): V1Pod & Named {
  const name = objectName(root.id);
  const factor = spec.resourceFactor;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: childMeta(root, podName(root.id, generation)),
    spec: {
      restartPolicy: 'Always',
      automountServiceAccountToken: false,
      enableServiceLinks: false,
      ...(config.runtime_class ? { runtimeClassName: config.runtime_class } : {}),
      securityContext: {
        runAsNonRoot: true,
        runAsUser: spec.runAsUser,
        runAsGroup: spec.runAsGroup,
        fsGroup: spec.runAsGroup,
        seccompProfile: { type: 'RuntimeDefault' },
      },
      containers: [
        {
          name: CONTAINER,
          image: spec.image,
          ...(config.image_pull_policy ? { imagePullPolicy: config.image_pull_policy } : {}),
          command: spec.command,
          args: [
            'agent-server',
            '--host',
            '0.0.0.0',
            '--port',
            String(config.agent_port),
            '--data-dir',
            POD_PATHS.data,
          ],
          workingDir: spec.workingDir,
          ports: [{ name: 'http', containerPort: config.agent_port, protocol: 'TCP' }],
          envFrom: [{ secretRef: { name } }],
          env: [
            { name: 'BOSUN_WORKSPACE_ROOT', value: spec.workingDir },
            { name: 'HOME', value: POD_PATHS.home },
            { name: 'TMPDIR', value: POD_PATHS.tmp },
          ],
          resources: {
            requests: { cpu: scaled(config.cpu_request, factor), memory: scaled(config.memory_request, factor) },
            limits: { cpu: scaled(config.cpu_limit, factor), memory: scaled(config.memory_limit, factor) },
          },
          securityContext: {
            allowPrivilegeEscalation: false,
            privileged: false,
            readOnlyRootFilesystem: true,
            capabilities: { drop: ['ALL'] },
          },
          readinessProbe: { httpGet: { path: '/ready', port: 'http' }, periodSeconds: 2, failureThreshold: 3 },
          volumeMounts: [
            { name: 'workspace', mountPath: spec.workingDir, subPath: 'workspace' },
            { name: 'workspace', mountPath: POD_PATHS.data, subPath: 'data' },
            { name: 'home', mountPath: POD_PATHS.home },
            { name: 'tmp', mountPath: POD_PATHS.tmp },
          ],
        },
      ],
      volumes: [
        { name: 'workspace', persistentVolumeClaim: { claimName: name } },
        { name: 'home', emptyDir: {} },
        { name: 'tmp', emptyDir: {} },
      ],
    },
  };
}

/** A quantity times a resource factor, in the same unit (`500m` × 2 = `1000m`, `1.5Gi` × 2 = `3Gi`). */
export function scaled(quantity: string, factor: number): string {
  const match = /^([0-9]+(?:\.[0-9]+)?)(.*)$/.exec(quantity);
  if (!match?.[1]) throw new Error(`not a quantity: ${quantity}`);
  const value = Number(match[1]) * factor;
  return `${Number.isInteger(value) ? value : value.toFixed(3).replace(/\.?0+$/, '')}${match[2] ?? ''}`;
}
