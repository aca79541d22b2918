import { NotFoundError } from '@bosun/http';
import type { CustomSecretCreate, CustomSecretUpdate, CustomSecretWithoutValue } from '@bosun/protocol';
import { Type } from '@sinclair/typebox';
import type { ApiRoutes } from '../../http/api-routes.ts';
import { pageOf, pageQuery } from '../../http/pages.ts';
import { conflictsAs409, notFound, shape } from '../../http/replies.ts';
import { routeOptions } from '../../http/route-options.ts';
import { principalOf } from '../../identity/authenticate.ts';
import { rateLimited } from '../../identity/rate-limits.ts';
import type { IdentityRouteDeps } from '../../identity/routes/deps.ts';
import type { SecretInfo } from '../../identity/stores.ts';

const route = routeOptions('Secrets');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const SecretParams = Type.Object(
  { secret_id: Type.String({ minLength: 1, maxLength: 128, description: 'The secret’s name or id.' }) },
  { additionalProperties: false },
);
type SecretParams = { secret_id: string };

const SearchQuery = Type.Object(
  { name__contains: Type.Optional(Type.String({ maxLength: 128 })), ...pageQuery },
  { additionalProperties: false },
);
type SearchQuery = { name__contains?: string; page_id?: string; limit?: number };

const toWire = ({ id, name, description, created_at, updated_at }: SecretInfo): CustomSecretWithoutValue => ({
  id,
  name,
  description,
  created_at,
  updated_at,
});

/** Custom secrets (`/api/v1/secrets`, OpenHands' paths): values go in, never out. */
export function secretRoutes(deps: IdentityRouteDeps): ApiRoutes {
  return (app) => {
    const { secrets } = deps;
    const limited = rateLimited(deps.rateLimiter, deps.rateLimits, 'secret_write');

    app.post<{ Body: CustomSecretCreate }>(
      '/secrets',
      {
        ...route('Create a custom secret', {
          body: shape('CustomSecretCreate'),
          response: { 201: 'CustomSecretWithoutValue', 409: 'HTTPError' },
        }),
        preHandler: limited,
      },
      async (request, reply) => {
        const { userId } = principalOf(request);
        const { name, description = null, value } = request.body;
        const created = await conflictsAs409(() => secrets.create(userId, { name, description, value }));
        return reply.code(201).send(toWire(created));
      },
    );

    app.get<{ Querystring: SearchQuery }>(
      '/secrets/search',
      route('The caller’s custom secrets by name, without values', {
        querystring: SearchQuery,
        response: { 200: 'CustomSecretPage' },
      }),
      async (request, reply) => {
        const { userId } = principalOf(request);
        const { name__contains, page_id, limit = 100 } = request.query;
        const page = await pageOf(toWire, () =>
          secrets.search(userId, {
            limit,
            ...(name__contains ? { nameContains: name__contains } : {}),
            ...(page_id ? { pageId: page_id } : {}),
          }),
        );
        return page;
      },
    );

    app.put<{ Params: SecretParams; Body: CustomSecretUpdate }>(
      '/secrets/:secret_id',
      {
        ...route('Change a custom secret’s description or value, or rename it', {
          params: SecretParams,
          body: shape('CustomSecretUpdate'),
          response: { 200: 'CustomSecretWithoutValue', 409: 'HTTPError' },
        }),
        preHandler: limited,
      },
      async (request, reply) => {
        const { userId } = principalOf(request);
        const current = await secretByIdOrName(userId, request.params.secret_id);
        if (!current) return notFound(reply, 'Secret');
        const { name = current.name, ...change } = request.body;
        if (name !== current.name) return toWire(await renamed(userId, current, name, change));
        await secrets.update(userId, current.name, change);
        return toWire((await secrets.get(userId, name)) ?? current);
      },
    );

    app.delete<{ Params: SecretParams }>(
      '/secrets/:secret_id',
      {
        ...route('Delete a custom secret', { params: SecretParams, response: { 200: 'EditResponse' } }),
        preHandler: limited,
      },
      async (request, reply) => {
        const { userId } = principalOf(request);
        const current = await secretByIdOrName(userId, request.params.secret_id);
        const deleted = current !== undefined && (await secrets.delete(userId, current.name));
        return deleted ? { message: 'Secret deleted' } : notFound(reply, 'Secret');
      },
    );

    /** The user's secret named by the path: its name, or its id (a UUID, which no name can be). */
    async function secretByIdOrName(userId: string, idOrName: string): Promise<SecretInfo | undefined> {
      if (!UUID.test(idOrName)) return secrets.get(userId, idOrName);
      let pageId: string | undefined;
      do {
        const page = await secrets.search(userId, { limit: 100, ...(pageId ? { pageId } : {}) });
        const found = page.items.find((secret) => secret.id === idOrName.toLowerCase());
        if (found) return found;
        pageId = page.next_page_id ?? undefined;
      } while (pageId);
      return undefined;
    }

    /** A rename: the secret under its new name (409 if taken) with its value, then the old one deleted. */
    async function renamed(
      userId: string,
      current: SecretInfo,
      name: string,
      change: { description?: string | null; value?: string },
    ): Promise<SecretInfo> {
      const value = change.value ?? (await secrets.value(userId, current.name));
      if (value === undefined) throw new NotFoundError('Secret not found');
      const description = change.description === undefined ? current.description : change.description;
      const created = await conflictsAs409(() => secrets.create(userId, { name, description, value }));
      await secrets.delete(userId, current.name);
      return created;
    }
  };
}
