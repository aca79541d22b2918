import { type GitProvider, type GitProviders, providerBases } from './source.ts';

/** Credentials for one fetch: sent as an HTTP header, never written into a URL, a file or a message. */
export interface GitAuth {
  username?: string;
  password: string;
}

/** The secret each provider's token is read from, and the user name its HTTPS endpoint expects with a token. */
const PROVIDER_TOKENS: Record<GitProvider, { secret: string; username: string }> = {
  github: { secret: 'GITHUB_TOKEN', username: 'x-access-token' },
  gitlab: { secret: 'GITLAB_TOKEN', username: 'oauth2' },
  bitbucket: { secret: 'BITBUCKET_TOKEN', username: 'x-token-auth' },
};
const GENERIC_TOKEN = 'GIT_TOKEN';
const GENERIC_USERNAME = 'GIT_USERNAME';

/**
 * The credential a conversation's secrets hold for `url`: the token of the provider whose host it is on
 * (`GITHUB_TOKEN`, `GITLAB_TOKEN`, `BITBUCKET_TOKEN`), else `GIT_TOKEN` (with `GIT_USERNAME` if set). Only for
 * HTTP(S) URLs: other transports carry their own credentials.
 */
export function gitAuthFromSecrets(
  url: string,
  secrets: Readonly<Record<string, string>>,
  providers: GitProviders = {},
): GitAuth | undefined {
  const host = httpHost(url);
  if (!host) return undefined;
  const bases = providerBases(providers);
  for (const [provider, token] of Object.entries(PROVIDER_TOKENS)) {
    if (httpHost(bases[provider as GitProvider]) === host && secrets[token.secret]) {
      return { username: token.username, password: secrets[token.secret] as string };
    }
  }
  const generic = secrets[GENERIC_TOKEN];
  if (!generic) return undefined;
  return { username: secrets[GENERIC_USERNAME] || 'git', password: generic };
}

/** The `Authorization` header value for `auth`. */
export function authorizationHeader(auth: GitAuth): string {
  return `Basic ${Buffer.from(`${auth.username ?? 'git'}:${auth.password}`).toString('base64')}`;
}

function httpHost(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.host.toLowerCase() : undefined;
  } catch {
    return undefined;
  }
}
