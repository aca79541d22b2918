import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { KINDS, type Kind, type KubeObject, matchesSelector } from './kinds.ts';
import type { ObjectStore } from './object-store.ts';
import type { SimulatedAgents } from './simulated-agents.ts';

/** The namespace the simulated ingress controller runs in (what a sandbox's NetworkPolicy must admit). */
export const INGRESS_NAMESPACE = 'ingress-nginx';

const kind = (name: string): Kind => KINDS.find((candidate) => candidate.kind === name)!;
type Labels = Record<string, string> | undefined;
const matches = (labels: Labels, wanted: Labels) =>
  matchesSelector(
    labels,
    Object.entries(wanted ?? {})
      .map(([key, value]) => `${key}=${value}`)
      .join(',') || null,
  );

/**
 * The ingress controller: routes by Host header to a Ready pod behind the Ingress's Service, and answers `/alive`
 * and `/ready` for it, and what `agents` answers (the simulated agent server's activity; no real one runs). 404 for a host no Ingress names, 503 with no Ready pod,
 * 504 when the NetworkPolicies selecting the pod do not admit the controller's namespace to its port (the
 * connection a real network plugin would drop).
 */
export async function startIngressController(
  store: ObjectStore,
  agents: SimulatedAgents,
): Promise<{ server: Server; address: string }> {
  const server = createServer((request, response) => {
    const answer = (code: number, body: unknown) => {
      response.writeHead(code, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    const host = (request.headers.host ?? '').replace(/:\d+$/, '');
    const route = routeOf(store, host);
    if (!route) return answer(404, { message: `no ingress for host ${host}` });
    const pod = store
      .list(kind('Pod'), route.namespace)
      .find((candidate) => matches(candidate.metadata.labels, route.selector) && isReady(candidate));
    if (!pod) return answer(503, { message: 'no ready endpoints' });
    if (!admitted(store, pod)) return answer(504, { message: 'the connection to the pod timed out (NetworkPolicy)' });
    if (request.url === '/alive' || request.url === '/ready') return answer(200, { status: 'ok' });
    if (agents.answer(pod, request.url ?? '/', request.headers, response)) return;
    answer(404, { detail: 'not found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, address: `127.0.0.1:${(server.address() as AddressInfo).port}` };
}

function routeOf(store: ObjectStore, host: string): { namespace: string; selector: Labels } | undefined {
  type Rule = { host: string; http: { paths: { backend: { service: { name: string } } }[] } };
  const namespaces = new Set(store.all().map(({ object }) => object.metadata.namespace ?? ''));
  for (const namespace of namespaces) {
    for (const ingress of store.list(kind('Ingress'), namespace)) {
      const rule = (ingress.spec as { rules: Rule[] }).rules.find((candidate) => candidate.host === host);
      const serviceName = rule?.http.paths[0]?.backend.service.name;
      const service = serviceName && store.get(kind('Service'), namespace, serviceName);
      if (service) return { namespace, selector: (service.spec as { selector?: Labels }).selector };
    }
  }
  return undefined;
}

function isReady(pod: KubeObject): boolean {
  const conditions = (pod.status as { conditions?: { type: string; status: string }[] } | undefined)?.conditions;
  return (conditions ?? []).some(({ type, status }) => type === 'Ready' && status === 'True');
}

type Peer = { namespaceSelector?: { matchLabels?: Labels }; podSelector?: unknown; ipBlock?: unknown };
type IngressRule = { from?: Peer[]; ports?: { port?: number | string }[] };

/** Whether the controller may connect: no policy selects the pod for Ingress, or one admits its namespace. */
function admitted(store: ObjectStore, pod: KubeObject): boolean {
  const port = (pod.spec as { containers: { ports?: { containerPort: number; name?: string }[] }[] }).containers[0]
    ?.ports?.[0];
  const policies = store
    .list(kind('NetworkPolicy'), pod.metadata.namespace)
    .map(
      (policy) =>
        policy.spec as { podSelector: { matchLabels?: Labels }; policyTypes?: string[]; ingress?: IngressRule[] },
    )
    .filter(
      (spec) =>
        matches(pod.metadata.labels, spec.podSelector.matchLabels) &&
        (spec.policyTypes ?? ['Ingress']).includes('Ingress'),
    );
  if (policies.length === 0) return true;
  return policies.some((spec) =>
    (spec.ingress ?? []).some(
      (rule) =>
        (!rule.from ||
          rule.from.some(
            (peer) =>
              peer.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'] === INGRESS_NAMESPACE &&
              !peer.podSelector,
          )) &&
        (!rule.ports ||
          rule.ports.some(({ port: allowed }) => allowed === port?.containerPort || allowed === port?.name)),
    ),
  );
}
