import type { POSTProviderModel } from '@bosun/protocol';
import type { FastifyInstance } from 'fastify';
import { principalOf } from '../identity/authenticate.ts';
import { rateLimited } from '../identity/rate-limits.ts';
import type { IdentityRouteDeps } from './deps.ts';
import { errorResponses, shape } from './replies.ts';

const tags = ['Secrets'];

/** Git provider tokens (`/api/v1/secrets/git-providers`): stored sealed; settings show only which are set. */
export function gitProviderRoutes(app: FastifyInstance, deps: IdentityRouteDeps): void {
  const { secrets } = deps;
  const limited = rateLimited(deps.rateLimiter, deps.rateLimits, 'secret_write');

  app.post<{ Body: POSTProviderModel }>(
    '/secrets/git-providers',
    {
      schema: {
        tags,
        summary: 'Store Git provider tokens (the providers left out keep theirs)',
        body: shape('POSTProviderModel'),
        response: { 200: shape('EditResponse'), ...errorResponses },
      },
      preHandler: limited,
    },
    async (request) => {
      await secrets.saveProviderTokens(principalOf(request).userId, request.body.provider_tokens ?? {});
      return { message: 'Git provider tokens stored' };
    },
  );

  app.delete(
    '/secrets/git-providers',
    {
      schema: {
        tags,
        summary: 'Delete every Git provider token of the caller',
        response: { 200: shape('EditResponse'), ...errorResponses },
      },
      preHandler: limited,
    },
    async (request) => {
      await secrets.deleteProviderTokens(principalOf(request).userId);
      return { message: 'Git provider tokens deleted' };
    },
  );
}
