import { PROVIDER_TYPES, type UserGitInfo } from '@bosun/protocol';
import type { FastifyInstance } from 'fastify';
import { principalOf } from '../identity/authenticate.ts';
import type { ProviderTokensStore } from '../identity/stores.ts';
import { forbidden } from './replies.ts';
import { routeOptions } from './route-options.ts';

const route = routeOptions('Users');

/**
 * `GET /users/git-info`: the caller's Git account as the app knows it, from the provider tokens it stores. The Git
 * host is never asked (the account's id, login, avatar, name... stay null); no provider connected is a 403.
 */
export function gitInfoRoutes(app: FastifyInstance, providerTokens: Pick<ProviderTokensStore, 'list'>): void {
  app.get(
    '/users/git-info',
    route('The caller’s Git provider account, as far as the app knows it (no Git provider connected: 403)', {
      response: { 200: 'UserGitInfo', 403: 'HTTPError' },
    }),
    async (request, reply) => {
      const connected = await providerTokens.list(principalOf(request).userId);
      const rank = (provider: string) => (PROVIDER_TYPES as readonly string[]).indexOf(provider);
      const [first] = connected
        .filter(({ provider }) => rank(provider) >= 0)
        .sort((a, b) => rank(a.provider) - rank(b.provider));
      if (!first)
        return forbidden(reply, 'No Git provider is connected: store a token first (/api/v1/secrets/git-providers)');
      const info: UserGitInfo = {
        id: null,
        login: null,
        avatar_url: null,
        company: null,
        name: null,
        email: null,
        provider: first.provider as UserGitInfo['provider'],
        host: first.host,
        token_set: true,
      };
      return info;
    },
  );
}
