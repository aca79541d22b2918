import { type InstallValues, authHost, sandboxHost } from '../install-values.ts';

/** A host the install serves, what names it in the values, and whether its ingress has the chart's TLS. */
export interface ServedHost {
  role: 'app' | 'auth' | 'runtime API' | 'sandbox';
  host: string;
  keys: string;
  /** The DNS record it needs (a wildcard for sandboxes). */
  record: string;
}

/** The id of the sample sandbox whose host stands for all of them. */
export const SAMPLE_SANDBOX_ID = 'preflight0sandbox';

/** The hosts browsers reach: the app, Keycloak, the runtime API and a sample sandbox, when the values serve them. */
export function servedHosts(values: InstallValues): ServedHost[] {
  const hosts: ServedHost[] = [];
  if (values.ingress.enabled && values.ingress.host) {
    hosts.push({ role: 'app', host: values.ingress.host, keys: 'ingress.host', record: values.ingress.host });
  }
  if (values.keycloak.enabled && values.keycloak.ingressEnabled) {
    const host = authHost(values);
    hosts.push({ role: 'auth', host, keys: 'keycloak.ingress.hostname, ingress.host', record: host });
  }
  const { runtimeApi } = values;
  if (runtimeApi.enabled && runtimeApi.ingress.enabled && runtimeApi.ingress.host) {
    const host = runtimeApi.ingress.host;
    hosts.push({ role: 'runtime API', host, keys: 'runtime-api.ingress.host', record: host });
  }
  const sandbox = runtimeApi.enabled ? sandboxHost(values, SAMPLE_SANDBOX_ID) : undefined;
  if (sandbox) {
    const record = sandbox.replace(/^[^.]+/, '*');
    hosts.push({ role: 'sandbox', host: sandbox, keys: 'env.RUNTIME_URL_PATTERN', record });
  }
  return hosts;
}
