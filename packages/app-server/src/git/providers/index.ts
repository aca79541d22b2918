import type { GitProviderUrls } from '../provider-urls.ts';
import { gitHubApi } from './github.ts';
import { gitLabApi } from './gitlab.ts';
import { PROVIDER_TIMEOUT_MS } from './http.ts';
import { type GitProviderApi, GitProviderError } from './types.ts';

export { GitProviderError } from './types.ts';
export type { GitAccount, GitProviderApi, ProviderPage } from './types.ts';

/** The providers the app can browse. */
export const BROWSABLE_PROVIDERS = ['github', 'gitlab'] as const;
export type BrowsableProvider = (typeof BROWSABLE_PROVIDERS)[number];

export const isBrowsable = (provider: string): provider is BrowsableProvider =>
  (BROWSABLE_PROVIDERS as readonly string[]).includes(provider);

const LABELS: Record<BrowsableProvider, string> = { github: 'GitHub', gitlab: 'GitLab' };

/**
 * The root of a provider's REST API: from the token's host when it has one (`https://<host>`, or the host as
 * given when it names its scheme), else from the app's clone URL of the provider (`git_github_url`, ...).
 * Public GitHub's is `https://api.github.com`; GitHub Enterprise's `<url>/api/v3`; GitLab's `<url>/api/v4`.
 */
export function apiBase(provider: BrowsableProvider, host: string | null, urls: GitProviderUrls): string {
  const given = host ? (/^https?:\/\//i.test(host) ? host : `https://${host}`) : urls[provider];
  let web: URL;
  try {
    web = new URL(given);
  } catch {
    throw new GitProviderError(400, `The host stored with the ${LABELS[provider]} token is not a host: ${host}`);
  }
  const root = `${web.origin}${web.pathname}`.replace(/\/+$/, '');
  if (provider === 'gitlab') return `${root}/api/v4`;
  return /^https:\/\/(www\.)?github\.com$/.test(root) ? 'https://api.github.com' : `${root}/api/v3`;
}

export interface ProviderAccess {
  token: string;
  host: string | null;
}

export interface ProviderReach {
  urls: GitProviderUrls;
  /** Whether an address may be asked for a token's own host (the configured providers' always may). */
  admit?: (address: string) => boolean;
  timeoutMs?: number;
}

/**
 * The provider's API as the holder of `access` reaches it (the token is sent, never logged nor answered). A host
 * stored with the token other than the configured provider's is asked only at addresses `admit` lets through.
 */
export function gitProviderApi(
  provider: BrowsableProvider,
  { token, host }: ProviderAccess,
  { urls, admit, timeoutMs = PROVIDER_TIMEOUT_MS }: ProviderReach,
): GitProviderApi {
  const base = apiBase(provider, host, urls);
  const configured = new URL(apiBase(provider, null, urls)).host === new URL(base).host;
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, 'user-agent': 'Bosun' };
  const http = { label: LABELS[provider], base, headers, timeoutMs, ...(configured ? {} : { admit }) };
  if (provider === 'gitlab') return gitLabApi(http);
  return gitHubApi({
    ...http,
    headers: { ...headers, accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28' },
  });
}
