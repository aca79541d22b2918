import { ConflictError, InputError } from '@bosun/http';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, preHandlerAsyncHookHandler } from 'fastify';
import type { ApiRoutes } from '../../http/api-routes.ts';
import { notFound } from '../../http/replies.ts';
import { routeOptions } from '../../http/route-options.ts';
import { principalOf } from '../../identity/authenticate.ts';
import type { Sandboxes } from '../index.ts';
import { SandboxParams } from './sandbox-wire.ts';

const route = routeOptions('Sandboxes');
/** OpenHands' clients send the id again as `?sandbox_id=` (its parameter-name bug); the path is what counts. */
const DeleteQuery = Type.Object(
  {
    sandbox_id: Type.Optional(
      Type.String({ maxLength: 255, description: 'Accepted for OpenHands clients; must equal the path’s.' }),
    ),
  },
  { additionalProperties: false },
);
const responses = { 200: 'SuccessResponse' };
const success = { success: true };

/** Pause, resume and delete of the caller's sandbox (another user's is 404). */
export function sandboxLifecycleRoutes(
  sandboxes: Sandboxes,
  limited: { preHandler?: preHandlerAsyncHookHandler },
): ApiRoutes {
  return (app) => {
    app.post<{ Params: SandboxParams }>(
      '/sandboxes/:sandbox_id/pause',
      route('Pause a sandbox: its process stops and its key is revoked; its workspace stays', {
        params: SandboxParams,
        response: responses,
      }),
      async (request, reply) => {
        const paused = await sandboxes.pause(principalOf(request).userId, request.params.sandbox_id);
        return paused ? success : notFound(reply, 'Sandbox');
      },
    );

    app.post<{ Params: SandboxParams }>(
      '/sandboxes/:sandbox_id/resume',
      {
        ...route('Resume a sandbox over its workspace, with a new session key (running already: nothing to do)', {
          params: SandboxParams,
          response: { ...responses, 409: 'HTTPError', 429: 'HTTPError', 502: 'HTTPError' },
        }),
        ...limited,
      },
      async (request, reply) => {
        const resumed = await sandboxes.resume(principalOf(request).userId, request.params.sandbox_id);
        if (!resumed) return notFound(reply, 'Sandbox');
        if (resumed.status === 'MISSING') throw new ConflictError('The sandbox’s workspace no longer exists');
        if (resumed.status === 'ERROR') return notStarted(reply, resumed.statusDetail);
        return success;
      },
    );

    app.delete<{ Params: SandboxParams; Querystring: { sandbox_id?: string } }>(
      '/sandboxes/:sandbox_id',
      route('Delete a sandbox: its process stops and its directories are removed', {
        params: SandboxParams,
        querystring: DeleteQuery,
        response: responses,
      }),
      async (request, reply) => {
        const { sandbox_id: id } = request.params;
        const repeated = request.query.sandbox_id;
        if (repeated !== undefined && repeated !== id) {
          throw new InputError([
            { loc: ['query', 'sandbox_id'], msg: 'differs from the sandbox id of the path', type: 'value_error' },
          ]);
        }
        const deleted = await sandboxes.delete(principalOf(request).userId, id);
        return deleted ? success : notFound(reply, 'Sandbox');
      },
    );
  };
}

function notStarted(reply: FastifyReply, why: string | null) {
  return reply.code(502).send({ detail: `The sandbox did not start: ${why ?? 'no reason given'}` });
}
