import type { CustomSecretCreate, CustomSecretUpdate, CustomSecretWithoutValue } from '@bosun/protocol';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { principalOf } from '../identity/authenticate.ts';
import { rateLimited } from '../identity/rate-limits.ts';
import type { SecretEntry } from '../secrets/secrets-store.ts';
import type { IdentityRouteDeps } from './deps.ts';
import { pageOf, pageQuery } from './pages.ts';
import { conflictsAs409, errorResponses, notFound, shape } from './replies.ts';

const tags = ['Secrets'];

const SecretParams = Type.Object(
  { secret_id: Type.String({ minLength: 1, maxLength: 128, description: 'The secret’s id or name.' }) },
  { additionalProperties: false },
);
type SecretParams = { secret_id: string };

const SearchQuery = Type.Object(
  { name__contains: Type.Optional(Type.String({ maxLength: 128 })), ...pageQuery },
  { additionalProperties: false },
);
type SearchQuery = { name__contains?: string; page_id?: string; limit?: number };

const toWire = (entry: SecretEntry): CustomSecretWithoutValue => ({
  id: entry.id,
  name: entry.name,
  description: entry.description,
  created_at: entry.createdAt,
  updated_at: entry.updatedAt,
});

/** Custom secrets (`/api/v1/secrets`, OpenHands' paths): values go in, never out. */
export function secretRoutes(app: FastifyInstance, deps: IdentityRouteDeps): void {
  const { secrets } = deps;
  const limited = rateLimited(deps.rateLimiter, deps.rateLimits, 'secret_write');

  app.post<{ Body: CustomSecretCreate }>(
    '/secrets',
    {
      schema: {
        tags,
        summary: 'Create a custom secret',
        body: shape('CustomSecretCreate'),
        response: { 201: shape('CustomSecretWithoutValue'), 409: shape('HTTPError'), ...errorResponses },
      },
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
    {
      schema: {
        tags,
        summary: 'The caller’s custom secrets by name, without values',
        querystring: SearchQuery,
        response: { 200: shape('CustomSecretPage'), ...errorResponses },
      },
    },
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
      schema: {
        tags,
        summary: 'Rename a custom secret, or change its description or value',
        params: SecretParams,
        body: shape('CustomSecretUpdate'),
        response: { 200: shape('CustomSecretWithoutValue'), 409: shape('HTTPError'), ...errorResponses },
      },
      preHandler: limited,
    },
    async (request, reply) => {
      const { userId } = principalOf(request);
      const found = await secrets.find(userId, request.params.secret_id);
      if (!found) return notFound(reply, 'Secret');
      const updated = await conflictsAs409(() => secrets.update(userId, found.id, request.body));
      return updated ? toWire(updated) : notFound(reply, 'Secret');
    },
  );

  app.delete<{ Params: SecretParams }>(
    '/secrets/:secret_id',
    {
      schema: {
        tags,
        summary: 'Delete a custom secret',
        params: SecretParams,
        response: { 200: shape('EditResponse'), ...errorResponses },
      },
      preHandler: limited,
    },
    async (request, reply) => {
      const { userId } = principalOf(request);
      const found = await secrets.find(userId, request.params.secret_id);
      if (!found || !(await secrets.delete(userId, found.id))) return notFound(reply, 'Secret');
      return { message: 'Secret deleted' };
    },
  );
}
