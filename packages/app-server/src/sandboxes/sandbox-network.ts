import { type AllowedHost, type NetworkPolicy, parseAllowedHost } from '@bosun/runtime';

/** How far sandboxes reach (`sandbox_network`): nowhere but what they need, plus an allow-list, or anywhere. */
export type SandboxNetworkMode = 'none' | 'allow' | 'open';

const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443, 'ws:': 80, 'wss:': 443 };

/**
 * A new sandbox's network: under `none` and `allow`, what it needs is added to the list (`allow` also has the
 * configured `sandbox_allow_hosts`): the URLs in `needed` (the LLM endpoint its conversations use, the app's own
 * URL for its webhooks), each as its host and port. `open` is the host's network as it is.
 */
export function sandboxNetwork(
  mode: SandboxNetworkMode,
  allowHosts: readonly string[],
  needed: readonly (string | null | undefined)[],
): NetworkPolicy {
  if (mode === 'open') return { mode: 'open' };
  const hosts = [...(mode === 'allow' ? allowHosts.map(parseAllowedHost) : []), ...needed.flatMap(hostOfUrl)];
  const unique = [...new Map(hosts.map((entry) => [`${entry.host} ${entry.port}`, entry])).values()];
  return unique.length > 0 ? { mode: 'allow', hosts: unique } : { mode: 'none' };
}

/** The host and port `url` connects to (none for what is not an http(s) or ws(s) URL). */
function hostOfUrl(url: string | null | undefined): AllowedHost[] {
  if (!url) return [];
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [];
  }
  const port = parsed.port ? Number(parsed.port) : DEFAULT_PORTS[parsed.protocol];
  if (port === undefined || !parsed.hostname) return [];
  return [{ host: parsed.hostname.replace(/^\[(.*)\]$/, '$1'), port }];
}
