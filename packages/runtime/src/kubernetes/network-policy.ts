import type { V1NetworkPolicy, V1NetworkPolicyPeer, V1NetworkPolicyPort } from '@kubernetes/client-node';
import type { Named } from './kube-api.ts';
import type { KubeSpec } from './kube-spec.ts';
import type { KubernetesRuntimeConfig, NetworkPeer } from './kubernetes-config.ts';
import { LABEL, type Root, childMeta } from './names.ts';

/**
 * What the sandbox's pod may reach and be reached from: an allow-list in both directions, so everything else (the
 * application's namespace, its database, other sandboxes, the cluster's API) is denied. Egress: DNS, the runtime's
 * `egress` peers (the LLM or its proxy, the app's webhook endpoint), the spec's allowed addresses, and under network
 * `open` every address but the private ranges. Ingress: only `ingress_from` (the ingress controller), to its port.
 */
export function sandboxNetworkPolicy(
  root: Root,
  spec: KubeSpec,
  config: KubernetesRuntimeConfig,
): V1NetworkPolicy & Named {
  const egress = [
    rule(config.dns, ['UDP', 'TCP']),
    ...config.egress.map((peer) => rule(peer)),
    ...(spec.network.mode === 'allow'
      ? spec.network.hosts.map(({ host, port }) => rule({ cidr: `${host}/32`, ports: [port] }))
      : []),
    ...(spec.network.mode === 'open' ? [rule({ cidr: '0.0.0.0/0', except: config.private_cidrs })] : []),
  ];
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: childMeta(root),
    spec: {
      podSelector: { matchLabels: { [LABEL.runtimeId]: root.id } },
      policyTypes: ['Ingress', 'Egress'],
      ingress: [
        {
          _from: config.ingress_from.map(peerOf),
          ports: [{ protocol: 'TCP', port: config.agent_port }],
        },
      ],
      egress: egress.map(({ peer, ports }) => ({ to: [peer], ...(ports.length ? { ports } : {}) })),
    },
  };
}

function rule(peer: NetworkPeer, protocols = ['TCP']): { peer: V1NetworkPolicyPeer; ports: V1NetworkPolicyPort[] } {
  const ports = (peer.ports ?? []).flatMap((port) => protocols.map((protocol) => ({ protocol, port })));
  return { peer: peerOf(peer), ports };
}

/** A peer: addresses, or pods of a namespace (never "this namespace": that is other sandboxes). */
export function peerOf(peer: NetworkPeer): V1NetworkPolicyPeer {
  if (peer.cidr) return { ipBlock: { cidr: peer.cidr, ...(peer.except?.length ? { except: peer.except } : {}) } };
  if (!peer.namespace) throw new Error('a network peer needs a namespace or a cidr');
  return {
    namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': peer.namespace } },
    ...(peer.pod_labels ? { podSelector: { matchLabels: peer.pod_labels } } : {}),
  };
}
