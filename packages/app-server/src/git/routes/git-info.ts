import { PROVIDER_TYPES, type ProviderType, type UserGitInfo } from '@bosun/protocol';
import type { FastifyReply } from 'fastify';
import type { ApiRoutes } from '../../http/api-routes.ts';
import { routeOptions } from '../../http/route-options.ts';
import { principalOf } from '../../identity/authenticate.ts';
import type { ProviderTokensStore } from '../../identity/stores.ts';
import { tokenHostAdmit } from '../host-guard.ts';
import type { GitProviderUrls } from '../provider-urls.ts';
import {
  type BrowsableProvider,
  type GitAccount,
  GitProviderError,
  type ProviderAccess,
  gitProviderApi,
  isBrowsable,
} from '../providers/index.ts';

const route = routeOptions('Users');

/** What reading the caller's Git provider needs: their tokens and where each provider is. */
export interface GitBrowseDeps {
  providerTokens: Pick<ProviderTokensStore, 'list' | 'token'>;
  gitUrls: GitProviderUrls;
  /** Whether a host stored with a token may be at a loopback or private address (`git_allow_private_hosts`). */
  allowPrivateHosts?: boolean;
  /** How long one request to a provider may take (default 10 s). */
  timeoutMs?: number;
}

/** The provider's API with the caller's `access` (a token host at an internal address refused unless allowed). */
export function providerApiOf(deps: GitBrowseDeps, provider: BrowsableProvider, access: ProviderAccess) {
  const admit = tokenHostAdmit(deps.allowPrivateHosts);
  return gitProviderApi(provider, access, { urls: deps.gitUrls, admit, timeoutMs: deps.timeoutMs });
}

export const TOKENS_ROUTE = '/api/v1/secrets/git-providers';

/** The first connected provider in ProviderType's order, or undefined. */
export function firstProvider(connected: { provider: string }[]): ProviderType | undefined {
  return PROVIDER_TYPES.find((name) => connected.some(({ provider }) => provider === name));
}

export const noProvider = (reply: FastifyReply) =>
  reply.code(403).send({ detail: `No Git provider is connected: store a token first (${TOKENS_ROUTE})` });

const UNKNOWN: GitAccount = { id: null, login: null, avatar_url: null, company: null, name: null, email: null };

/**
 * `GET /users/git-info`: the caller's Git account, from the first provider they connected (ProviderType's order):
 * its fields as the provider's `GET /user` gives them, null when it cannot be asked (not reachable, the token
 * refused, a provider the app cannot browse). No provider connected is a 403.
 */
export function gitInfoRoutes(deps: GitBrowseDeps): ApiRoutes {
  return (app) => {
    app.get(
      '/users/git-info',
      route('The caller’s Git provider account (no Git provider connected: 403)', {
        response: { 200: 'UserGitInfo', 403: 'HTTPError' },
      }),
      async (request, reply) => {
        const { userId } = principalOf(request);
        const connected = await deps.providerTokens.list(userId);
        const provider = firstProvider(connected);
        if (!provider) return noProvider(reply);
        const host = connected.find((token) => token.provider === provider)?.host ?? null;
        let account = UNKNOWN;
        const access = isBrowsable(provider) ? await deps.providerTokens.token(userId, provider) : undefined;
        if (access && isBrowsable(provider)) {
          try {
            account = await providerApiOf(deps, provider, access).account();
          } catch (error) {
            if (!(error instanceof GitProviderError)) throw error;
            request.log.warn({ provider, status: error.status }, `Git account not read: ${error.detail}`);
          }
        }
        const info: UserGitInfo = { ...account, provider, host, token_set: true };
        return info;
      },
    );
  };
}
