import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { ApiRoutes } from '../../http/api-routes.ts';
import { callV1, everyItem, legacyRoute, relay, succeeded } from './forward.ts';

const Message = Type.Object({ message: Type.String() });
const NameParams = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 128, description: 'The secret’s name (its id in OpenHands).' }) },
  { additionalProperties: false },
);
type NameParams = { name: string };
const Create = Type.Object(
  { name: Type.String(), value: Type.String(), description: Type.Optional(Type.Union([Type.String(), Type.Null()])) },
  { additionalProperties: false },
);
type Create = { name: string; value: string; description?: string | null };
const Update = Type.Object(
  { name: Type.String(), description: Type.Optional(Type.Union([Type.String(), Type.Null()])) },
  { additionalProperties: false, description: 'A new name and description; the value is kept.' },
);
type Update = { name: string; description?: string | null };
const CustomSecrets = Type.Object({
  custom_secrets: Type.Array(
    Type.Object({ name: Type.String(), description: Type.Union([Type.String(), Type.Null()]) }),
  ),
});

/** `description` as V1 takes it: left out when null (V1's description is a string). */
const described = (description: string | null | undefined) => (typeof description === 'string' ? { description } : {});

/**
 * OpenHands' custom secrets routes (the Settings → Secrets page), over `/api/v1/secrets`. A secret's id there is
 * its name, which the V1 paths take too. Errors are V1's (a name taken: 409 where OpenHands answers 400).
 */
export function legacySecretRoutes(app: FastifyInstance): ApiRoutes {
  return (routes) => {
    routes.get(
      '/api/secrets',
      legacyRoute('The caller’s custom secrets, names and descriptions only', 'GET /api/v1/secrets/search', {
        response: { 200: CustomSecrets },
      }),
      async (request, reply) => {
        const secrets = await everyItem(app, request, '/api/v1/secrets/search');
        if (!secrets.items) return relay(reply, secrets);
        const items = secrets.items as { name: string; description?: string | null }[];
        return { custom_secrets: items.map(({ name, description }) => ({ name, description: description ?? null })) };
      },
    );

    routes.post<{ Body: Create }>(
      '/api/secrets',
      legacyRoute('Create a custom secret (201)', 'POST /api/v1/secrets', { body: Create, response: { 201: Message } }),
      async (request, reply) => {
        const { name, value, description } = request.body;
        const body = { name, value, ...described(description) };
        const answer = await callV1(app, request, { method: 'POST', url: '/api/v1/secrets', body });
        if (!succeeded(answer)) return relay(reply, answer);
        return reply.code(201).send({ message: 'Secret created successfully' });
      },
    );

    routes.put<{ Params: NameParams; Body: Update }>(
      '/api/secrets/:name',
      legacyRoute('Rename a custom secret or change its description (its value is kept)', 'PUT /api/v1/secrets/{id}', {
        params: NameParams,
        body: Update,
        response: { 200: Message },
      }),
      async (request, reply) => {
        const body = { name: request.body.name, ...described(request.body.description) };
        const url = `/api/v1/secrets/${encodeURIComponent(request.params.name)}`;
        const answer = await callV1(app, request, { method: 'PUT', url, body });
        return succeeded(answer) ? { message: 'Secret updated successfully' } : relay(reply, answer);
      },
    );

    routes.delete<{ Params: NameParams }>(
      '/api/secrets/:name',
      legacyRoute('Delete a custom secret', 'DELETE /api/v1/secrets/{id}', {
        params: NameParams,
        response: { 200: Message },
      }),
      async (request, reply) => {
        const url = `/api/v1/secrets/${encodeURIComponent(request.params.name)}`;
        const answer = await callV1(app, request, { method: 'DELETE', url });
        return succeeded(answer) ? { message: 'Secret deleted successfully' } : relay(reply, answer);
      },
    );
  };
}
