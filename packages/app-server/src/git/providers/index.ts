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

const GITHUB = 'https://github.com';
const BITBUCKET_CLOUD = 'https://bitbucket.org';

/** Where a provider is for the holder of one token: its web root, and whether that is the token's own host. */
export interface ProviderHost {
  /** `https://github.com`, `https://ghe.example.com`, `https://bitbucket.example.com/bitbucket`... (no trailing `/`). */
  root: string;
  /** A host stored with the token that is not the configured provider's: asked only through the address guard. */
  own: boolean;
}

/**
 * Where the browsing reads and a clone fetches: the token's host when it has one (`https://<host>`, or the host
 * as given when it names its scheme), else the app's configured URL of the provider (`git_github_url`, ...).
 * Bitbucket Server/Data Center is only ever at its token's host (the app configures none); a `bitbucket` token
 * stored with a host other than bitbucket.org or the configured one is refused (it is Data Center's).
 */
export function providerHost(provider: BrowsableProvider, stored: string | null, urls: GitProviderUrls): ProviderHost {
  const host = stored || null;
  if (provider === 'bitbucket_data_center') {
    if (!host)
      throw new GitProviderError(400, 'Store the Bitbucket Data Center token with its host: none is configured');
    return { root: rootOf(provider, host, true), own: true };
  }
  const configured = rootOf(provider, urls[provider], false);
  const root = host === null ? configured : rootOf(provider, host, true);
  const own = new URL(root).host !== new URL(configured).host;
  if (provider === 'bitbucket' && own && root !== BITBUCKET_CLOUD) {
    throw new GitProviderError(
      400,
      `${new URL(root).host} is not Bitbucket Cloud: store its token as bitbucket_data_center`,
    );
  }
  return { root, own };
}

/**
 * The root of a provider's REST API at `providerHost`'s root. Public GitHub's is `https://api.github.com`; GitHub
 * Enterprise's `<url>/api/v3`; GitLab's `<url>/api/v4`; Bitbucket Cloud's `https://api.bitbucket.org/2.0` (another
 * configured `git_bitbucket_url`: `<url>/2.0`); Bitbucket Server/Data Center's `<host>/rest/api/1.0`.
 */
export function apiBase(provider: BrowsableProvider, stored: string | null, urls: GitProviderUrls): string {
  return apiOf(provider, providerHost(provider, stored, urls).root);
}

function apiOf(provider: BrowsableProvider, root: string): string {
  if (provider === 'bitbucket_data_center') return `${root}/rest/api/1.0`;
  if (provider === 'gitlab') return `${root}/api/v4`;
  if (provider === 'bitbucket') return root === BITBUCKET_CLOUD ? 'https://api.bitbucket.org/2.0' : `${root}/2.0`;
  return root === GITHUB ? 'https://api.github.com' : `${root}/api/v3`;
}

/**
 * The origin and path of a host or URL, without a trailing slash (`https://` when it names no scheme); GitHub's
 * and Bitbucket Cloud's other names (`www.`, `api.`) as `https://github.com` and `https://bitbucket.org`.
 */
function rootOf(provider: BrowsableProvider, given: string, stored: boolean): string {
  let web: URL;
  try {
    web = new URL(stored && !/^https?:\/\//i.test(given) ? `https://${given}` : given);
  } catch {
    throw new GitProviderError(400, `The host stored with the ${LABELS[provider]} token is not a host: ${given}`);
  }
  // Not `origin`: a `file:` URL (a mirror on disk, as the tests configure) has none.
  const root = `${web.protocol}//${web.host}${web.pathname}`.replace(/\/+$/, '');
  if (/^https:\/\/(www\.)?github\.com$/.test(root)) return GITHUB;
  if (/^https:\/\/(www\.|api\.)?bitbucket\.org$/.test(root)) return BITBUCKET_CLOUD;
  return root;
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
  const { root, own } = providerHost(provider, host, urls);
  const base = apiOf(provider, root);
  const headers: Record<string, string> = { authorization: authorization(provider, token), 'user-agent': 'Bosun' };
  const http = { label: LABELS[provider], base, headers, timeoutMs, ...(own ? { admit } : {}) };
  if (provider === 'gitlab') return gitLabApi(http);
  if (provider === 'bitbucket') return bitbucketApi(http);
  if (provider === 'bitbucket_data_center') return bitbucketDataCenterApi(http);
  return gitHubApi({
    ...http,
    headers: { ...headers, accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28' },
  });
}

/** The user name Git sends beside a bare token over HTTPS (Data Center takes its HTTP access token as Bearer). */
const GIT_TOKEN_USER: Record<BrowsableProvider, string | null> = {
  github: 'x-access-token',
  gitlab: 'oauth2',
  bitbucket: 'x-token-auth',
  bitbucket_data_center: null,
};

/**
 * The `Authorization` a stored token is sent as, to the REST API or (`git`) to Git over HTTPS: a Bitbucket (Cloud
 * or Data Center) token holding a `:` is `username:app_password` (or `email:api_token`,
 * `username:http_access_token`), sent as Basic credentials. Any other token goes to the REST APIs as a Bearer
 * token, and to Git as Basic beside the provider's fixed user name (`x-access-token`, `oauth2`, `x-token-auth`);
 * Data Center's to Git as Bearer too (Atlassian: project and repository tokens only work that way).
 */
export function authorization(provider: BrowsableProvider, token: string, git = false): string {
  const basic = (credentials: string) => `Basic ${Buffer.from(credentials).toString('base64')}`;
  if (provider.startsWith('bitbucket') && token.includes(':')) return basic(token);
  const user = git ? GIT_TOKEN_USER[provider] : null;
  return user ? basic(`${user}:${token}`) : `Bearer ${token}`;
}
