import { InputError } from '@bosun/http';
import type { SandboxStartRequest } from '@bosun/protocol';
import { Type } from '@sinclair/typebox';
import type { preHandlerAsyncHookHandler } from 'fastify';
import type { ApiRoutes } from '../../http/api-routes.ts';
import { pageOf, pageQuery } from '../../http/pages.ts';
import { shape } from '../../http/replies.ts';
import { routeOptions } from '../../http/route-options.ts';
import { principalOf } from '../../identity/authenticate.ts';
import type { Sandbox, SandboxSpec, Sandboxes } from '../index.ts';
import { sandboxLifecycleRoutes } from './sandbox-lifecycle.ts';
import { type BatchQuery, BatchQuery as BatchQuerySchema, sandboxInfo } from './sandbox-wire.ts';

const route = routeOptions('Sandboxes');
const SPEC_ID = { sandbox_spec_id: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })) };
const StartQuery = Type.Object(SPEC_ID, { additionalProperties: false });
const SearchQuery = Type.Object({ ...pageQuery }, { additionalProperties: false });

export interface SandboxRouteDeps {
  sandboxes: Sandboxes;
  /** The first is the default. */
  specs: readonly SandboxSpec[];
  /** What limits starts (and resumes) per user: 429 with `Retry-After` past it. */
  startLimit?: preHandlerAsyncHookHandler;
}

/** `/api/v1/sandboxes`: the caller's sandboxes; another user's is 404 on every route. */
export function sandboxRoutes({ sandboxes, specs, startLimit }: SandboxRouteDeps): ApiRoutes {
  return (app, context) => {
    const limited = startLimit ? { preHandler: startLimit } : {};
    app.get<{ Querystring: { page_id?: string; limit?: number } }>(
      '/sandboxes/search',
      route('The caller’s sandboxes, newest first', { querystring: SearchQuery, response: { 200: 'SandboxPage' } }),
      async (request) => {
        const { page_id, limit = 100 } = request.query;
        const { userId } = principalOf(request);
        return pageOf(sandboxInfo, () => sandboxes.search(userId, { limit, ...(page_id ? { pageId: page_id } : {}) }));
      },
    );

    app.get<{ Querystring: BatchQuery }>(
      '/sandboxes',
      route('The caller’s sandboxes by id (null for each unknown or not theirs)', {
        querystring: BatchQuerySchema,
        response: { 200: Type.Array(Type.Union([shape('SandboxInfo'), Type.Null()])) },
      }),
      async (request) => {
        const found = await sandboxes.getMany(principalOf(request).userId, request.query.id);
        return found.map((sandbox) => (sandbox ? sandboxInfo(sandbox) : null));
      },
    );

    app.post<{ Querystring: { sandbox_spec_id?: string }; Body: SandboxStartRequest | null }>(
      '/sandboxes',
      {
        ...route('Start a sandbox (the spec id in the body or, as OpenHands has it, the query)', {
          querystring: StartQuery,
          body: Type.Union([shape('SandboxStartRequest'), Type.Null()]),
          response: { 200: 'SandboxInfo', 429: 'HTTPError' },
        }),
        ...limited,
      },
      async (request) => {
        const spec = specOf(specs, request.query.sandbox_spec_id, request.body?.sandbox_spec_id ?? undefined);
        return sandboxInfo(await sandboxes.start(spec, principalOf(request).userId));
      },
    );

    sandboxLifecycleRoutes(sandboxes, limited)(app, context);
  };
}

/** The spec named in the query or the body (both: the same one), else the default; an unknown one is a 422. */
function specOf(specs: readonly SandboxSpec[], inQuery?: string, inBody?: string): SandboxSpec {
  if (inQuery !== undefined && inBody !== undefined && inQuery !== inBody) {
    throw new InputError([
      { loc: ['query', 'sandbox_spec_id'], msg: 'differs from the body’s sandbox_spec_id', type: 'value_error' },
    ]);
  }
  const id = inQuery ?? inBody;
  const spec = id === undefined ? specs[0] : specs.find((candidate) => candidate.id === id);
  if (!spec) {
    const loc = inQuery !== undefined ? ['query', 'sandbox_spec_id'] : ['body', 'sandbox_spec_id'];
    throw new InputError([{ loc, msg: `unknown sandbox spec: ${id}`, type: 'value_error' }]);
  }
  return spec;
}
