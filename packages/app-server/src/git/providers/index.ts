import type { GitProviderUrls } from '../provider-urls.ts';
import { bitbucketDataCenterApi } from './bitbucket-dc.ts';
import { bitbucketApi } from './bitbucket.ts';
import { gitHubApi } from './github.ts';
import { gitLabApi } from './gitlab.ts';
import { PROVIDER_TIMEOUT_MS } from './http.ts';
import { type GitProviderApi, GitProviderError } from './types.ts';

export { GitProviderError } from './types.ts';
export type { GitAccount, GitProviderApi, ProviderPage } from './types.ts';

/** The providers the app can browse. */
export const BROWSABLE_PROVIDERS = ['github', 'gitlab', 'bitbucket', 'bitbucket_data_center'] as const;
export type BrowsableProvider = (typeof BROWSABLE_PROVIDERS)[number];

export const isBrowsable = (provider: string): provider is BrowsableProvider =>
  (BROWSABLE_PROVIDERS as readonly string[]).includes(provider);

const LABELS: Record<BrowsableProvider, string> = {
  github: 'GitHub',
  gitlab: 'GitLab',
  bitbucket: 'Bitbucket',
  bitbucket_data_center: 'Bitbucket Data Center',
};

/**
 * The root of a provider's REST API: from the token's host when it has one (`https://<host>`, or the host as
 * given when it names its scheme), else from the app's clone URL of the provider (`git_github_url`, ...).
 * Public GitHub's is `https://api.github.com`; GitHub Enterprise's `<url>/api/v3`; GitLab's `<url>/api/v4`;
 * Bitbucket Cloud's `https://api.bitbucket.org/2.0` (another configured `git_bitbucket_url`: `<url>/2.0`);
 * Bitbucket Server/Data Center's `<host>/rest/api/1.0` (its token's host: the app configures none).
 */
export function apiBase(provider: BrowsableProvider, stored: string | null, urls: GitProviderUrls): string {
  const host = stored || null;
  if (provider === 'bitbucket_data_center') {
    if (!host)
      throw new GitProviderError(400, 'Store the Bitbucket Data Center token with its host: none is configured');
    return `${rootOf(provider, host, true)}/rest/api/1.0`;
  }
  const root = rootOf(provider, host ?? urls[provider], host !== null);
  if (provider === 'gitlab') return `${root}/api/v4`;
  if (provider === 'bitbucket') {
    if (/^https:\/\/(www\.|api\.)?bitbucket\.org$/.test(root)) return 'https://api.bitbucket.org/2.0';
    if (host !== null && new URL(root).host !== new URL(rootOf(provider, urls.bitbucket, false)).host) {
      const self = new URL(root).host;
      throw new GitProviderError(400, `${self} is not Bitbucket Cloud: store its token as bitbucket_data_center`);
    }
    return `${root}/2.0`;
  }
  return /^https:\/\/(www\.)?github\.com$/.test(root) ? 'https://api.github.com' : `${root}/api/v3`;
}

/** The origin and path of a host or URL, without a trailing slash (`https://` when it names no scheme). */
function rootOf(provider: BrowsableProvider, given: string, stored: boolean): string {
  let web: URL;
  try {
    web = new URL(stored && !/^https?:\/\//i.test(given) ? `https://${given}` : given);
  } catch {
    throw new GitProviderError(400, `The host stored with the ${LABELS[provider]} token is not a host: ${given}`);
  }
  return `${web.origin}${web.pathname}`.replace(/\/+$/, '');
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
  const configured =
    provider !== 'bitbucket_data_center' && new URL(apiBase(provider, null, urls)).host === new URL(base).host;
  const headers: Record<string, string> = { authorization: authorization(provider, token), 'user-agent': 'Bosun' };
  const http = { label: LABELS[provider], base, headers, timeoutMs, ...(configured ? {} : { admit }) };
  if (provider === 'gitlab') return gitLabApi(http);
  if (provider === 'bitbucket') return bitbucketApi(http);
  if (provider === 'bitbucket_data_center') return bitbucketDataCenterApi(http);
  return gitHubApi({
    ...http,
    headers: { ...headers, accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28' },
  });
}

/**
 * How a stored token is sent: a Bitbucket (Cloud or Data Center) token holding a `:` is `username:app_password`
 * (or `email:api_token`, `username:http_access_token`), sent as Basic credentials; any other token (GitHub,
 * GitLab, Bitbucket access tokens) as a Bearer token.
 */
function authorization(provider: BrowsableProvider, token: string): string {
  if (provider.startsWith('bitbucket') && token.includes(':')) return `Basic ${Buffer.from(token).toString('base64')}`;
  return `Bearer ${token}`;
}
