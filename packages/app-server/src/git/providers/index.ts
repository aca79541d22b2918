import type { GitProviderUrls } from '../provider-urls.ts';
import { gitHubApi } from './github.ts';
import { gitLabApi } from './gitlab.ts';
import { PROVIDER_TIMEOUT_MS } from './http.ts';
import type { GitProviderApi } from './types.ts';

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
  const web = (host ? (/^https?:\/\//.test(host) ? host : `https://${host}`) : urls[provider]).replace(/\/+$/, '');
  if (provider === 'gitlab') return `${web}/api/v4`;
  return /^https:\/\/(www\.)?github\.com$/.test(web) ? 'https://api.github.com' : `${web}/api/v3`;
}

export interface ProviderAccess {
  token: string;
  host: string | null;
}

/** The provider's API as the holder of `access` reaches it (the token is sent, never logged nor answered). */
export function gitProviderApi(
  provider: BrowsableProvider,
  { token, host }: ProviderAccess,
  urls: GitProviderUrls,
  timeoutMs = PROVIDER_TIMEOUT_MS,
): GitProviderApi {
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, 'user-agent': 'Bosun' };
  const http = { label: LABELS[provider], base: apiBase(provider, host, urls), headers, timeoutMs };
  if (provider === 'gitlab') return gitLabApi(http);
  return gitHubApi({
    ...http,
    headers: { ...headers, accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28' },
  });
}
