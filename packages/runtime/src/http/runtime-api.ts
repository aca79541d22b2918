import { timingSafeEqual } from 'node:crypto';
import {
  ConflictError,
  HttpError,
  type HttpServerOptions,
  InputError,
  NotFoundError,
  createHttpServer,
} from '@bosun/http';
import type { FastifyInstance } from 'fastify';
import { SandboxConflictError, SandboxNotFoundError, SandboxSpecError } from '../errors.ts';
import type { Runtime, RuntimeSandbox } from '../runtime.ts';
import { BatchQuery, ResumeBody, RuntimeIdBody, RuntimeParams, SessionParams, StartBody } from './schemas.ts';
import { resumeRefresh, runtimeInfo, specErrorLocation, startSpec } from './wire.ts';

export interface RuntimeApiOptions extends HttpServerOptions {
  runtime: Runtime;
  /** The keys a caller may give in `X-API-Key` (at least one). */
  apiKeys: readonly string[];
  /** The backend's warm pools, for `/api/warm-runtime-configs` (default: none). */
  warmConfigs?: () => readonly object[];
}

/**
 * The runtime over HTTP, as OpenHands' runtime API clients call it: `/start`, `/stop`, `/pause`, `/resume`,
 * `/sessions/{session_id}`, `/sessions/batch?ids=`, `/runtime/{runtime_id}`, `/list`, `/health`, with
 * `X-API-Key`. A thin adapter: every decision is the runtime's.
 */
export function buildRuntimeApi(options: RuntimeApiOptions): FastifyInstance {
  if (options.apiKeys.length === 0 || options.apiKeys.some((key) => key.length < 16)) {
    throw new Error('the runtime API needs at least one API key of 16 characters or more');
  }
  const { runtime } = options;
  const app = createHttpServer(options);
  const keys = options.apiKeys.map((key) => Buffer.from(key));

  // Probes need no key; the rest does.
  app.get('/health', async () => {
    const health = await runtime.health();
    return {
      status: 'ok',
      backend: health.backend,
      isolated: health.isolated,
      enforced: health.enforced,
      not_enforced: health.notEnforced,
      running: health.running,
      warm: health.warm ?? {},
    };
  });

  app.register(async (secured) => {
    secured.addHook('onRequest', async (request) => {
      const given = request.headers['x-api-key'];
      const key = Buffer.from(typeof given === 'string' ? given : '');
      if (!keys.some((expected) => expected.length === key.length && timingSafeEqual(expected, key))) {
        throw new HttpError(401, 'a valid X-API-Key header is required');
      }
    });

    secured.post<{ Body: StartBody }>('/start', { schema: { body: StartBody } }, (request) =>
      answer(() => runtime.start(startSpec(request.body))),
    );
    secured.post<{ Body: RuntimeIdBody }>('/stop', { schema: { body: RuntimeIdBody } }, async (request) => {
      await translated(() => runtime.stop(request.body.runtime_id));
      return { success: true };
    });
    secured.post<{ Body: RuntimeIdBody }>('/pause', { schema: { body: RuntimeIdBody } }, (request) =>
      answer(() => runtime.pause(request.body.runtime_id)),
    );
    secured.post<{ Body: ResumeBody }>('/resume', { schema: { body: ResumeBody } }, (request) =>
      answer(() => runtime.resume(request.body.runtime_id, resumeRefresh(request.body))),
    );
    secured.get<{ Querystring: { ids: string[] } }>(
      '/sessions/batch',
      { schema: { querystring: BatchQuery } },
      async (request) =>
        (await runtime.getManyBySession(request.query.ids))
          .map((found) => found && runtimeInfo(found))
          .map((found) => found ?? null),
    );
    secured.get<{ Params: { session_id: string } }>(
      '/sessions/:session_id',
      { schema: { params: SessionParams } },
      (request) =>
        answer(async () =>
          found(await runtime.getBySession(request.params.session_id), 'session', request.params.session_id),
        ),
    );
    secured.get<{ Params: { runtime_id: string } }>(
      '/runtime/:runtime_id',
      { schema: { params: RuntimeParams } },
      (request) =>
        answer(async () => found(await runtime.get(request.params.runtime_id), 'runtime', request.params.runtime_id)),
    );
    secured.get('/list', async () => {
      const running = (await runtime.list()).map(runtimeInfo);
      return { runtimes: running, total: running.length };
    });
    // OpenHands' app asks for the pools' configurations (and falls back on none).
    secured.get('/api/warm-runtime-configs', async () => ({ configs: options.warmConfigs?.() ?? [] }));
  });
  return app;
}

async function answer(work: () => Promise<RuntimeSandbox>) {
  return runtimeInfo(await translated(work));
}

function found(sandbox: RuntimeSandbox | undefined, kind: string, id: string): RuntimeSandbox {
  if (!sandbox) throw new NotFoundError(`no ${kind} ${id}`);
  return sandbox;
}

/** The runtime's errors as HTTP's: 404, 409, and 422 naming the field. */
async function translated<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof SandboxNotFoundError) throw new NotFoundError(error.message);
    if (error instanceof SandboxConflictError) throw new ConflictError(error.message);
    if (error instanceof SandboxSpecError)
      throw new InputError([{ ...specErrorLocation(error.message), type: 'value_error' }]);
    throw error;
  }
}
