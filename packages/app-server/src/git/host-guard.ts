import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import type { GitProviderUrls } from './provider-urls.ts';

/** A repository the server will not fetch from (the message says why, for a 422). */
export class HostRefusedError extends Error {
  override name = 'HostRefusedError';
}

/** Addresses a server-side fetch never reaches unless configured: loopback, private, link-local and the like. */
const INTERNAL = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const) {
  INTERNAL.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  INTERNAL.addSubnet(net, prefix, 'ipv6');
}

/** Whether an address is internal (an IPv4 address mapped into IPv6 is judged as the IPv4 one). */
export function isInternalAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return INTERNAL.check(mapped[1] as string, 'ipv4');
  return INTERNAL.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
}

/**
 * What a Git token's own host (GitHub Enterprise, self-managed GitLab, Data Center) may be at, for the browsing
 * and the clone alike: no internal address unless `git_allow_private_hosts` (undefined: any address).
 */
export const tokenHostAdmit = (allowPrivateHosts?: boolean) =>
  allowPrivateHosts ? undefined : (address: string) => !isInternalAddress(address);

export interface HostGuardOptions {
  providers: GitProviderUrls;
  /** Let fetches reach loopback and private addresses (a provider inside the network; tests). */
  allowPrivateHosts: boolean;
  /** The resolver (default: the system's, as Git would use). */
  resolve?: (host: string) => Promise<string[]>;
}

/**
 * What the server fetches marketplaces from: HTTP(S) only, only the configured Git providers' hosts, and never an
 * internal address unless configured. The name is resolved here, every address checked, and Git is pinned to
 * those addresses (`http.curloptResolve`) and told not to follow redirects, so neither a DNS answer that changes
 * after the check nor a redirect leads it elsewhere.
 */
export class HostGuard {
  private readonly allowed: Set<string>;
  private readonly resolve: (host: string) => Promise<string[]>;

  constructor(private readonly options: HostGuardOptions) {
    this.allowed = new Set(Object.values(options.providers).map((base) => hostKey(new URL(base))));
    this.resolve =
      options.resolve ?? (async (host) => (await lookup(host, { all: true, verbatim: true })).map((a) => a.address));
  }

  /** The Git configuration pinning a fetch of `url`; HostRefusedError when it may not be fetched. */
  async gitConfig(url: string): Promise<Record<string, string>> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new HostRefusedError(`only HTTP(S) repositories of the configured Git providers are fetched, not ${url}`);
    }
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
      throw new HostRefusedError(
        `only HTTP(S) repositories of the configured Git providers are fetched, not ${parsed.protocol} URLs`,
      );
    }
    const key = hostKey(parsed);
    if (!this.allowed.has(key)) {
      throw new HostRefusedError(
        `${parsed.host} is not a configured Git provider (${[...this.allowed].join(', ')}): its repositories are not fetched`,
      );
    }
    const host = parsed.hostname.replace(/^\[|\]$/g, '');
    let addresses: string[];
    try {
      addresses = isIP(host) ? [host] : await this.resolve(host);
    } catch (error) {
      throw new HostRefusedError(`${host} does not resolve: ${(error as Error).message}`);
    }
    if (addresses.length === 0) throw new HostRefusedError(`${host} does not resolve`);
    if (!this.options.allowPrivateHosts) {
      const internal = addresses.filter(isInternalAddress);
      if (internal.length) {
        throw new HostRefusedError(
          `${host} resolves to an internal address (${internal.join(', ')}): not fetched (git_allow_private_hosts)`,
        );
      }
    }
    const port = parsed.port || (parsed.protocol === 'https:' ? '443' : '80');
    const pinned = addresses.map((address) => (isIP(address) === 6 ? `[${address}]` : address)).join(',');
    return {
      'http.curloptResolve': `${parsed.hostname}:${port}:${pinned}`,
      'http.followRedirects': 'false',
      'protocol.allow': 'never',
      'protocol.http.allow': 'always',
      'protocol.https.allow': 'always',
    };
  }
}

/** `host:port` with the scheme's default port filled in. */
function hostKey(url: URL): string {
  const port = url.port || (url.protocol === 'https:' ? '443' : url.protocol === 'http:' ? '80' : '');
  return `${url.hostname.toLowerCase()}:${port}`;
}
