import type { POSTProviderModel } from '@bosun/protocol';
import type { ApiRoutes } from '../../http/api-routes.ts';
import { invalid, shape } from '../../http/replies.ts';
import { routeOptions } from '../../http/route-options.ts';
import { principalOf } from '../../identity/authenticate.ts';
import { rateLimited } from '../../identity/rate-limits.ts';
import type { IdentityRouteDeps } from '../../identity/routes/deps.ts';

const route = routeOptions('Secrets');

/** Git provider tokens (`/secrets/git-providers`): stored sealed; settings show only which are set. */
export function gitProviderRoutes(deps: IdentityRouteDeps): ApiRoutes {
  return (app) => {
    const { providerTokens } = deps;
    const limited = rateLimited(deps.rateLimiter, deps.rateLimits, 'secret_write');

    app.post<{ Body: POSTProviderModel }>(
      '/secrets/git-providers',
      {
        ...route('Store Git provider tokens (the providers left out keep theirs; a null token keeps the stored one)', {
          body: shape('POSTProviderModel'),
          response: { 200: 'EditResponse' },
        }),
        preHandler: limited,
      },
      async (request, reply) => {
        const { userId } = principalOf(request);
        const given = Object.entries(request.body.provider_tokens ?? {});
        const tokens = await Promise.all(
          given.map(async ([provider, { token, host }]) => {
            const stored = token ? undefined : await providerTokens.token(userId, provider);
            return { provider, token: token ?? stored?.token, host: host === undefined ? stored?.host : host };
          }),
        );
        const missing = tokens.find(({ token }) => token === undefined);
        if (missing) {
          return invalid(
            reply,
            ['body', 'provider_tokens', missing.provider, 'token'],
            'No token stored yet: give one',
          );
        }
        for (const { provider, token, host } of tokens) {
          await providerTokens.set(userId, provider, { token: token as string, host: host ?? null });
        }
        return { message: 'Git provider tokens stored' };
      },
    );

    app.delete(
      '/secrets/git-providers',
      {
        ...route('Delete every Git provider token of the caller', { response: { 200: 'EditResponse' } }),
        preHandler: limited,
      },
      async (request) => {
        const { userId } = principalOf(request);
        for (const { provider } of await providerTokens.list(userId)) await providerTokens.delete(userId, provider);
        return { message: 'Git provider tokens deleted' };
      },
    );
  };
}
