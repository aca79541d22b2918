import type { RuntimeHealth } from '../runtime.ts';
import type { KubernetesRuntimeConfig } from './kubernetes-config.ts';

const NOT_ENFORCED = [
  'NetworkPolicy: enforced only by a network plugin that implements it (Calico, Cilium...); the API accepts it either way',
  'disk: a workspace cannot outgrow its claim, but /tmp and the home directory count against the node, not a quota',
];

/** What the Kubernetes backend enforces on every sandbox and what it cannot, for `health()`. */
export function kubernetesGuarantees(config: KubernetesRuntimeConfig): Omit<RuntimeHealth, 'running' | 'warm'> {
  return {
    backend: 'kubernetes',
    isolated: true,
    enforced: [
      `namespace: ${config.namespace}, one pod per sandbox with no service-account token`,
      'user: never root, no capability, no privilege escalation, read-only root file system, seccomp RuntimeDefault',
      `resources: cpu ${config.cpu_limit}, memory ${config.memory_limit} per resource factor (limits)`,
      'network: a NetworkPolicy per sandbox (egress: DNS and the configured endpoints; ingress: the ingress controller)',
    ],
    notEnforced: NOT_ENFORCED,
  };
}
