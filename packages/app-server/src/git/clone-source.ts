import { isIP } from 'node:net';
import type { ProviderType } from '@bosun/protocol';
import type { GitProviderUrls } from './provider-urls.ts';
import { GitProviderError, type ProviderAccess, authorization, isBrowsable, providerHost } from './providers/index.ts';
import { AddressRefusedError, admittedAddresses } from './providers/request.ts';

/** Where a repository is cloned from, and the Git configuration the clone runs with. */
export interface CloneSource {
  /** The repository's URL (no credentials in it). */
  url: string;
  /**
   * A Git configuration file's text (empty: none needed): the token's `Authorization` header for the URL's origin
   * only; for a token's own host, the checked addresses Git is pinned to and no redirect followed. It holds the
   * token: written for the one command that clones, never logged.
   */
  config: string;
}

export interface CloneReach {
  urls: GitProviderUrls;
  /** Whether a token's own host may be at an address (the browsing's guard; undefined: any address). */
  admit?: (address: string) => boolean;
}

/**
 * The one place that decides where `repository` of `provider` is cloned from with the user's `access` (their
 * stored token and its host, or null): the host the browsing reads (`providerHost`: the token's host, else the
 * configured `git_*_url`), at `<root>/<repository>.git` (Bitbucket Data Center: `<root>/scm/<PROJECT>/<repo>.git`),
 * with the credentials that host takes for the token (`authorization`). A token's own host is asked only at
 * addresses `admit` lets through, resolved here and pinned. What cannot be cloned is a `GitProviderError`.
 */
export async function cloneSource(
  provider: ProviderType,
  repository: string,
  access: ProviderAccess | null,
  { urls, admit }: CloneReach,
): Promise<CloneSource> {
  if (!isBrowsable(provider)) {
    throw new GitProviderError(
      400,
      `Repositories of ${provider} cannot be cloned yet (GitHub, GitLab, Bitbucket Cloud and Data Center can)`,
    );
  }
  const { root, own } = providerHost(provider, access?.host ?? null, urls);
  const path = provider === 'bitbucket_data_center' ? `scm/${repository}` : repository;
  const url = new URL(`${root}/${path}.git`);
  const lines: string[] = [];
  // Credentials go over HTTP(S) only (a configured `file:` mirror takes none).
  if (access && /^https?:$/.test(url.protocol)) {
    const header = `Authorization: ${authorization(provider, access.token, true)}`;
    // A line break in the token would add headers of its own.
    if (/\p{Cc}/u.test(header)) throw new GitProviderError(400, 'The stored token holds control characters');
    lines.push(`[http ${quoted(`${url.origin}/`)}]`, `\textraHeader = ${quoted(header)}`);
  }
  if (own) {
    lines.push('[http]', '\tfollowRedirects = false');
    if (admit) lines.push(`\tcurloptResolve = ${quoted(await pinOf(url, admit))}`);
  }
  return { url: `${url}`, config: lines.length ? `${lines.join('\n')}\n` : '' };
}

/** `host:port:address,...` for `http.curloptResolve`: the host's addresses, each admitted. */
async function pinOf(url: URL, admit: (address: string) => boolean): Promise<string> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = (await admittedAddresses(host, admit)).map(({ address }) => address);
  } catch (error) {
    if (error instanceof AddressRefusedError) throw new GitProviderError(400, error.message);
    throw new GitProviderError(502, `${host} does not resolve`);
  }
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  const pinned = addresses.map((address) => (isIP(address) === 6 ? `[${address}]` : address));
  return `${url.hostname}:${port}:${pinned.join(',')}`;
}

/** A Git configuration value (or subsection name) in double quotes. */
const quoted = (value: string) => `"${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
