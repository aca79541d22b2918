import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { SESSION_KEY_HEADER, isValidSessionKey } from '../http/auth.ts';

const Model = Type.Object({
  id: Type.String({ description: 'The model name, as `agent.llm.model` takes it.' }),
  object: Type.Literal('model'),
  created: Type.Integer({ description: 'Unix seconds (when the server started).' }),
  owned_by: Type.String(),
});

const ModelList = Type.Object(
  { object: Type.Literal('list'), data: Type.Array(Model) },
  { description: "OpenAI's model list: the server's default model (BOSUN_LLM_MODEL), if it has one." },
);

/** The key of `Authorization: Bearer <key>`, if that is the header. */
function bearer(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(.+)$/i.exec(header ?? '');
  return match?.[1];
}

/**
 * `GET /v1/models` (OpenHands' OpenAI-compatible gateway): the model conversations get without an agent. The
 * session key may come as `X-Session-API-Key` or as a bearer token, as OpenAI clients send it.
 */
export function modelRoutes(
  app: FastifyInstance,
  deps: { sessionApiKeys: readonly string[]; defaultModel?: string; startedAt: number },
): void {
  app.get(
    '/v1/models',
    {
      schema: {
        tags: ['OpenAI-compatible'],
        summary: "List the server's default model (OpenAI format)",
        response: { 200: ModelList, 401: Type.Object({ detail: Type.String() }) },
      },
      onRequest: async (request, reply) => {
        const keys = deps.sessionApiKeys;
        const given = request.headers[SESSION_KEY_HEADER] ?? bearer(request.headers.authorization);
        if (!isValidSessionKey(keys, given)) return reply.code(401).send({ detail: 'Unauthorized' });
      },
    },
    async () => ({
      object: 'list' as const,
      data: deps.defaultModel
        ? [
            {
              id: deps.defaultModel,
              object: 'model' as const,
              created: Math.floor(deps.startedAt / 1000),
              owned_by: 'bosun',
            },
          ]
        : [],
    }),
  );
}
