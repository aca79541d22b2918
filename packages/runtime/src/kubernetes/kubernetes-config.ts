import { type Static, Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

const DNS_LABEL = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$';
const QUANTITY = '^[0-9]+(\\.[0-9]+)?(m|k|M|G|T|Ki|Mi|Gi|Ti)?$';
const quantity = (value: string, description: string) =>
  Type.String({ pattern: QUANTITY, default: value, expected: 'a Kubernetes quantity (500m, 2Gi)', description });
const timeout = (ms: number, description: string) => Type.Integer({ minimum: 1, default: ms, description });

/**
 * Who a sandbox may talk to or be reached from, as a NetworkPolicy peer: pods of a namespace (optionally only those
 * with some labels), or addresses (a CIDR, minus some). `ports` (TCP) empty: every port.
 */
export const NetworkPeer = Type.Object(
  {
    namespace: Type.Optional(Type.String({ pattern: DNS_LABEL, maxLength: 63 })),
    pod_labels: Type.Optional(Type.Record(Type.String(), Type.String())),
    cidr: Type.Optional(Type.String({ minLength: 1 })),
    except: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
    ports: Type.Optional(Type.Array(Type.Integer({ minimum: 1, maximum: 65535 }))),
  },
  { additionalProperties: false },
);
export type NetworkPeer = Static<typeof NetworkPeer>;

/**
 * The Kubernetes backend's settings (`runtime_backend: kubernetes`), named after OpenHands' runtime API variables
 * where it has one (`RUNTIME_BASE_URL` is `runtime_base_url`). Values are checked once, at open.
 */
export const KubernetesRuntimeConfig = Type.Object({
  namespace: Type.String({
    pattern: DNS_LABEL,
    maxLength: 63,
    default: 'bosun-sandboxes',
    description: "The namespace sandboxes run in (OpenHands' K8S_NAMESPACE); never the application's.",
  }),
  app_namespace: Type.Optional(
    Type.String({
      pattern: DNS_LABEL,
      maxLength: 63,
      description: "The application's namespace: refused as the sandbox namespace; sandboxes cannot reach it.",
    }),
  ),
  kubeconfig: Type.Optional(
    Type.String({ minLength: 1, description: 'A kubeconfig file; none: in-cluster, else ~/.kube/config.' }),
  ),
  image: Type.String({ minLength: 1, description: "The agent server's image, when a start request names none." }),
  image_pull_policy: Type.Optional(Type.Union([Type.Literal('Always'), Type.Literal('IfNotPresent')])),
  command: Type.Array(Type.String({ minLength: 1 }), {
    minItems: 1,
    default: ['bosun'],
    description: 'The command before `agent-server` in the image, when a start request names none.',
  }),
  agent_port: Type.Integer({ minimum: 1, maximum: 65535, default: 8000, description: "The agent server's port." }),
  runtime_base_url: Type.String({
    minLength: 1,
    description: 'The host (and port) sandbox hosts end with: `{runtime_id}<separator><this>` (RUNTIME_BASE_URL).',
  }),
  runtime_url_separator: Type.String({ minLength: 1, maxLength: 1, default: '.', pattern: '^[.-]$' }),
  runtime_url_pattern: Type.Optional(
    Type.String({
      minLength: 1,
      description: 'A sandbox URL with `{runtime_id}` (RUNTIME_URL_PATTERN): checked against the base at open.',
    }),
  ),
  runtime_disable_ssl: Type.Boolean({ default: false, description: 'Sandbox URLs are http:// rather than https://.' }),
  ingress_class: Type.Optional(Type.String({ minLength: 1 })),
  ingress_annotations: Type.Record(Type.String(), Type.String(), { default: {} }),
  ingress_tls_secret: Type.Optional(
    Type.String({ minLength: 1, description: 'A (wildcard) certificate Secret in the sandbox namespace.' }),
  ),
  probe_address: Type.Optional(
    Type.String({
      pattern: '^[^/:]+:[0-9]+$',
      description: 'host:port of the ingress controller to check a sandbox through (its Host header kept).',
    }),
  ),
  storage_class: Type.Optional(
    Type.String({ minLength: 1, description: 'Storage class of workspaces (STORAGE_CLASS); none: the default.' }),
  ),
  storage_size: quantity('10Gi', 'Size of a workspace volume (PERSISTENT_STORAGE_SIZE).'),
  cpu_request: quantity('500m', 'Per sandbox, times its resource factor.'),
  cpu_limit: quantity('1', 'Per sandbox, times its resource factor.'),
  memory_request: quantity('1Gi', 'Per sandbox, times its resource factor.'),
  memory_limit: quantity('3Gi', 'Per sandbox, times its resource factor.'),
  run_as_user: Type.Integer({ minimum: 1, default: 10001, description: 'When a start request names none.' }),
  run_as_group: Type.Integer({ minimum: 1, default: 10001, description: 'When a start request names none.' }),
  runtime_class: Type.Optional(Type.String({ minLength: 1, description: 'A RuntimeClass (gVisor, Kata...).' })),
  egress: Type.Array(NetworkPeer, {
    default: [],
    description: 'Where every sandbox may connect besides DNS: its LLM or LLM proxy, the app (webhooks).',
  }),
  dns: NetworkPeer,
  ingress_from: Type.Array(NetworkPeer, {
    default: [{ namespace: 'ingress-nginx' }],
    description: 'Who may connect to a sandbox: the ingress controller.',
  }),
  private_cidrs: Type.Array(Type.String({ minLength: 1 }), {
    default: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '169.254.0.0/16', '100.64.0.0/10'],
    description: 'What network `open` still excludes: the cluster, its nodes and cloud metadata.',
  }),
  start_timeout_ms: timeout(300_000, 'How long a sandbox may take to become RUNNING before it is ERROR.'),
  unschedulable_timeout_ms: timeout(120_000, 'How long a pod may stay Unschedulable before it is reaped.'),
  volume_bind_timeout_ms: timeout(120_000, 'How long a workspace claim may stay unbound before ERROR.'),
  probe_timeout_ms: timeout(3_000, 'One reachability check of a sandbox URL.'),
  stop_grace_seconds: Type.Integer({ minimum: 0, default: 10 }),
});
export type KubernetesRuntimeConfig = Static<typeof KubernetesRuntimeConfig>;

/** The kube-dns pods of kube-system, port 53 (what most clusters run). */
const DEFAULT_DNS: NetworkPeer = { namespace: 'kube-system', pod_labels: { 'k8s-app': 'kube-dns' }, ports: [53] };

export type KubernetesRuntimeSettings = Partial<KubernetesRuntimeConfig> &
  Pick<KubernetesRuntimeConfig, 'image' | 'runtime_base_url'>;

/** Settings with their defaults, checked against the schema; throws naming the first bad key. */
export function kubernetesConfigOf(settings: KubernetesRuntimeSettings): KubernetesRuntimeConfig {
  const given = Value.Default(KubernetesRuntimeConfig, { dns: DEFAULT_DNS, ...structuredClone(settings) });
  const [problem] = Value.Errors(KubernetesRuntimeConfig, given);
  if (problem) throw new Error(`kubernetes runtime: ${problem.path.slice(1) || 'config'}: ${problem.message}`);
  const config = given as KubernetesRuntimeConfig;
  const loose = [config.dns, ...config.egress, ...config.ingress_from].find((peer) => !peer.namespace && !peer.cidr);
  if (loose) {
    throw new Error(`kubernetes runtime: a network peer needs a namespace or a cidr: ${JSON.stringify(loose)}`);
  }
  if (config.app_namespace === config.namespace) {
    throw new Error(`kubernetes runtime: namespace ${config.namespace} is the application's: sandboxes need their own`);
  }
  return config;
}
