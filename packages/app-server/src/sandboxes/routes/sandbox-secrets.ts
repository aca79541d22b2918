import { type TSchema, Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiRoutes } from '../../http/api-routes.ts';
import { forbidden, notFound } from '../../http/replies.ts';
import { routeOptions } from '../../http/route-options.ts';
import { type SandboxSecretSources, sandboxSecretNames, sandboxSecretValue } from '../../settings/sandbox-secrets.ts';
import type { Sandbox, Sandboxes } from '../index.ts';
import { sandboxOnly } from './sandbox-caller.ts';

const route = routeOptions('Sandboxes');

const SandboxParams = Type.Object({ sandbox_id: Type.String({ minLength: 1, maxLength: 255 }) });
const SecretParams = Type.Object({
  sandbox_id: Type.String({ minLength: 1, maxLength: 255 }),
  name: Type.String({ minLength: 1, maxLength: 255 }),
});
const SandboxSecretsPage = Type.Object(
  {
    secrets: Type.Array(Type.Object({ name: Type.String(), description: Type.Union([Type.String(), Type.Null()]) })),
  },
  { description: 'The secrets the sandbox may look up, by name: never their values.' },
);

/** The value as it is, as text (Fastify takes a response schema per content type). */
const PLAIN_TEXT = {
  description: 'The value, as text.',
  content: { 'text/plain': { schema: Type.String() } },
} as unknown as TSchema;

export interface SandboxSecretRouteDeps {
  sandboxes: Sandboxes;
  sources: SandboxSecretSources;
}

/**
 * `GET /api/v1/sandboxes/{sandbox_id}/settings/secrets[/{name}]`: a sandbox's agent server reads its owner's
 * secrets (their custom secrets, then their Git provider tokens as `<PROVIDER>_TOKEN`), each value as it is now:
 * the LookupSecrets a start gives it point here, so a token renewed while the conversation runs reaches it.
 * Only that sandbox's own session key is taken (no user's key or cookie): an unknown key is a 401, another
 * sandbox's a 403 whether the named sandbox exists or not. Never kept by caches on the way.
 */
export function sandboxSecretRoutes(deps: SandboxSecretRouteDeps): ApiRoutes {
  return (app) => {
    const ownSandbox = [sandboxOnly(deps.sandboxes), onlyItself];
    app.get<{ Params: { sandbox_id: string } }>(
      '/sandboxes/:sandbox_id/settings/secrets',
      {
        config: { public: true },
        preValidation: ownSandbox,
        ...route('A sandbox lists the secrets it may look up (header X-Session-API-Key: that sandbox’s key)', {
          params: SandboxParams,
          response: { 200: SandboxSecretsPage, 403: 'HTTPError' },
        }),
      },
      async (request, reply) => {
        noStore(reply);
        return { secrets: await sandboxSecretNames(deps.sources, (request.sandbox as Sandbox).ownerId) };
      },
    );
    app.get<{ Params: { sandbox_id: string; name: string } }>(
      '/sandboxes/:sandbox_id/settings/secrets/:name',
      {
        config: { public: true },
        preValidation: ownSandbox,
        ...route('A sandbox reads one secret’s value as text (header X-Session-API-Key: that sandbox’s key)', {
          params: SecretParams,
          response: {
            200: PLAIN_TEXT,
            403: 'HTTPError',
          },
        }),
      },
      async (request, reply) => {
        noStore(reply);
        const owner = (request.sandbox as Sandbox).ownerId;
        const value = await sandboxSecretValue(deps.sources, owner, request.params.name);
        if (value === undefined) return notFound(reply, 'Secret');
        return reply.type('text/plain; charset=utf-8').send(value);
      },
    );
  };
}

/** After `sandboxOnly`: the key must be the named sandbox's own (nothing said of whether that one exists). */
async function onlyItself(request: FastifyRequest, reply: FastifyReply) {
  const { sandbox_id: named } = request.params as { sandbox_id?: string };
  if (request.sandbox?.id !== named) {
    noStore(reply);
    return forbidden(reply, 'A sandbox reads only its own secrets');
  }
}

function noStore(reply: FastifyReply): FastifyReply {
  return reply.header('Cache-Control', 'no-store');
}
