import type {
  ProviderToken,
  ProviderTokenInfo,
  ProviderTokensRepository,
  StoredProviderToken,
} from '../data/repositories/provider-tokens.ts';
import {
  type TokenAnswer,
  boundedText,
  lifetimeOf,
  tokenAnswerOf,
  tokenErrorOf,
} from '../identity/oidc/token-answer.ts';
import { type GitProviderUrls, tokenVariable } from './provider-urls.ts';
import { providerHost } from './providers/index.ts';

/** A provider app's OAuth client (`git_github_app_client_id`...): only with it are its tokens renewed. */
export interface OAuthClient {
  id: string;
  secret: string;
}

export type RenewingProvider = 'github' | 'gitlab' | 'bitbucket';
export type RenewalClients = Partial<Record<RenewingProvider, OAuthClient>>;

/** What reads a user's provider tokens: the tokens they have, and each one usable now. */
export interface ProviderTokenReader {
  list(userId: string): Promise<ProviderTokenInfo[]>;
  token(userId: string, provider: string): Promise<ProviderToken | undefined>;
}

export interface GitTokenRenewalOptions {
  store: Pick<ProviderTokensRepository, 'list' | 'stored' | 'renewed' | 'refreshRefused'>;
  clients: RenewalClients;
  urls: GitProviderUrls;
  /** Told why a renewal did not happen (never a token nor a secret). */
  log: { warn(details: object, message: string): void };
  /** How long before it expires a token is renewed (default 5 minutes). */
  marginMs?: number;
  /** How long the provider may take to answer (default 10 s). */
  timeoutMs?: number;
  now?: () => number;
}

/** The provider refused the refresh token (revoked, expired, used already): only a new sign-in brings another. */
const REFUSALS = new Set(['bad_refresh_token', 'invalid_grant']);

type Renewal = { answer: TokenAnswer } | { refused: string };

/**
 * The users' Git provider tokens, each renewed when it has expired or is about to (a GitHub App's user token
 * lasts 8 hours, GitLab's and Bitbucket's 2) with the refresh token its sign-in brought and the provider app's
 * OAuth client. One renewal at a time per user and provider (the provider rotates refresh tokens: a second use of
 * the old one is refused), stored only over the very token it renewed (never over one stored by hand meanwhile).
 * A token that expired and cannot be renewed (refresh token refused or expired, no client configured) reads as
 * none: the person signs in again. One whose renewal failed for a while (provider down) is tried again next read.
 */
export class GitTokenRenewal implements ProviderTokenReader {
  private readonly flights = new Map<string, Promise<ProviderToken | undefined>>();
  private readonly marginMs: number;
  private readonly now: () => number;

  constructor(private readonly options: GitTokenRenewalOptions) {
    this.marginMs = options.marginMs ?? 5 * 60_000;
    this.now = options.now ?? Date.now;
  }

  list(userId: string): Promise<ProviderTokenInfo[]> {
    return this.options.store.list(userId);
  }

  /** The user's token for the provider, renewed first when due; undefined: none, or expired for good. */
  async token(userId: string, provider: string): Promise<ProviderToken | undefined> {
    const key = `${userId}\u0000${provider}`;
    const flying = this.flights.get(key);
    if (flying) return flying;
    const stored = await this.options.store.stored(userId, provider);
    if (!stored) return undefined;
    const expiresAt = stored.expiresAt === null ? Number.POSITIVE_INFINITY : Date.parse(stored.expiresAt);
    if (expiresAt - this.marginMs > this.now()) return { token: stored.token, host: stored.host };
    let flight = this.flights.get(key);
    if (!flight) {
      flight = this.renew(userId, provider, stored).finally(() => this.flights.delete(key));
      this.flights.set(key, flight);
    }
    return flight;
  }

  private async renew(userId: string, provider: string, stored: StoredProviderToken) {
    const { store, log } = this.options;
    const client = this.options.clients[provider as RenewingProvider];
    const refresh = stored.refresh;
    const live = refresh && (refresh.expiresAt === null || Date.parse(refresh.expiresAt) > this.now());
    if (!refresh || !live || !client || stored.source === null) return this.usable(stored);
    const about = { user_id: userId, provider };
    let renewal: Renewal;
    try {
      renewal = await this.ask(provider as RenewingProvider, stored.host, client, refresh.token);
    } catch (error) {
      log.warn({ ...about, reason: (error as Error).message }, 'Git token not renewed: tried again next time');
      return this.usable(stored);
    }
    if ('refused' in renewal) {
      // Renewed meanwhile by another replica (its rotation made ours stale): that one is the token.
      const now = await store.stored(userId, provider);
      if (now?.version !== stored.version) return this.usable(now);
      await store.refreshRefused(userId, provider, stored.version);
      log.warn({ ...about, error: renewal.refused }, 'Git token not renewed, refused: the person signs in again');
      return this.usable(stored);
    }
    const { answer } = renewal;
    const lifetime = lifetimeOf(answer, this.now());
    const next = { token: answer.accessToken, ...lifetime, refreshToken: lifetime.refreshToken ?? refresh.token };
    if (!lifetime.refreshToken) next.refreshExpiresAt = refresh.expiresAt;
    if (await store.renewed(userId, provider, stored.version, next)) return { token: next.token, host: stored.host };
    // Stored by hand, deleted or renewed meanwhile: what is there now wins.
    return this.usable(await store.stored(userId, provider));
  }

  /** The token while it has not expired. */
  private usable(stored: StoredProviderToken | undefined): ProviderToken | undefined {
    if (!stored || (stored.expiresAt !== null && Date.parse(stored.expiresAt) <= this.now())) return undefined;
    return { token: stored.token, host: stored.host };
  }

  /** Asks the provider for a new token with `refreshToken` (RFC 6749 §6); throws when it cannot be asked. */
  private async ask(provider: RenewingProvider, host: string | null, client: OAuthClient, refreshToken: string) {
    const root = providerHost(provider, host, this.options.urls).root;
    const form = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken });
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'Bosun' };
    let url: string;
    if (provider === 'bitbucket') {
      url = `${root}/site/oauth2/access_token`;
      headers.authorization = `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString('base64')}`;
    } else {
      url = provider === 'github' ? `${root}/login/oauth/access_token` : `${root}/oauth/token`;
      form.set('client_id', client.id);
      form.set('client_secret', client.secret);
    }
    const answer = await fetch(url, {
      method: 'POST',
      headers,
      body: form,
      redirect: 'error',
      signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
    });
    const body = await boundedText(answer);
    const error = tokenErrorOf(body);
    if (error && REFUSALS.has(error)) return { refused: error };
    const token = answer.ok && !error ? tokenAnswerOf(body) : undefined;
    if (!token) throw new Error(`${new URL(url).host} answered HTTP ${answer.status}${error ? ` (${error})` : ''}`);
    return { answer: token };
  }
}

/** The OAuth clients of the configuration's provider apps (`git_<provider>_app_client_id` and `_secret`). */
export function renewalClientsOf(
  config: Partial<Record<`git_${RenewingProvider}_app_client_${'id' | 'secret'}`, string>>,
) {
  const clients: RenewalClients = {};
  for (const provider of ['github', 'gitlab', 'bitbucket'] as const) {
    const id = config[`git_${provider}_app_client_id`];
    const secret = config[`git_${provider}_app_client_secret`];
    if (id && secret) clients[provider] = { id, secret };
  }
  return clients;
}

/** The user's usable provider tokens as the variables a sandbox and Git read them from (`GITHUB_TOKEN`, ...). */
export async function providerTokenSecrets(reader: ProviderTokenReader, userId: string) {
  const secrets: Record<string, string> = {};
  for (const { provider } of await reader.list(userId)) {
    const token = await reader.token(userId, provider);
    if (token) secrets[tokenVariable(provider)] = token.token;
  }
  return secrets;
}
