import { Type } from '@sinclair/typebox';
import { LicenseStatus } from '../license/index.ts';
import type { ApiRoutes } from './api-routes.ts';
import { SERVER_TITLE, SERVER_VERSION } from './server-info.ts';

const Status = Type.Object({ status: Type.String() });

const Readiness = Type.Object({
  status: Type.Union([Type.Literal('ready'), Type.Literal('unavailable')]),
  message: Type.Optional(Type.String()),
  checks: Type.Record(Type.String(), Type.Union([Type.Literal('ok'), Type.Literal('failing')]), {
    description:
      'Each dependency the server was configured with (database, cache, objects, sandboxes: the runtime) and ' +
      'whether it answers.',
  }),
  sandboxes: Type.Optional(
    Type.Object(
      {
        backend: Type.String({ description: 'local (embedded), or what the runtime service names' }),
        isolated: Type.Boolean({ description: 'false: sandboxes see what the runtime sees (unsafe-none)' }),
      },
      { description: 'The runtime sandboxes run in, as it answered.' },
    ),
  ),
});

const ServerInfo = Type.Object({
  title: Type.String(),
  version: Type.String(),
  uptime: Type.Integer({ description: 'Seconds since start.' }),
  node_version: Type.String(),
  docs: Type.String(),
  license: LicenseStatus,
});

/** Something the server needs that can stop answering (a database, a cache, an object store). */
export interface Dependency {
  /** Resolves when it answers; rejects (or never settles) when it does not. */
  ping(): Promise<void>;
}

const DEPENDENCIES = ['database', 'cache', 'objects'] as const;

export interface HealthState {
  startedAt: number;
  /** What the server was given that can stop answering. */
  dependencies: { [name in (typeof DEPENDENCIES)[number]]?: Dependency };
  /** Where the server's sandboxes run, once it has any: its runtime says whether it answers, and how it isolates. */
  sandboxRuntime: () => { runtime: { health(): Promise<{ backend: string; isolated: boolean }> } } | undefined;
  /** How long each dependency has to answer. */
  timeoutMs: number;
  /** The license's state now, with the seats used. */
  license: () => Promise<LicenseStatus>;
}

/** Liveness, readiness (every dependency answers) and facts about the server; never behind auth. */
export function healthRoutes(state: HealthState): ApiRoutes {
  return (app) => {
    const tags = ['Server details'];
    const ok = async () => ({ status: 'ok' });
    app.get('/alive', { schema: { tags, summary: 'Alive', response: { 200: Status } } }, ok);
    app.get('/health', { schema: { tags, summary: 'Health', response: { 200: Status } } }, ok);
    app.get(
      '/ready',
      {
        schema: {
          tags,
          summary: 'Ready (503 while a dependency does not answer)',
          response: { 200: Readiness, 503: Readiness },
        },
      },
      async (request, reply) => {
        const names = DEPENDENCIES.filter((name) => state.dependencies[name] !== undefined);
        const pinged: [string, Dependency][] = names.map((name) => [name, state.dependencies[name] as Dependency]);
        const runtime = state.sandboxRuntime()?.runtime;
        let health: { backend: string; isolated: boolean } | undefined;
        const ping = async () => {
          health = await runtime?.health();
        };
        if (runtime) pinged.push(['sandboxes', { ping }]);
        const results = await Promise.all(pinged.map(([, dependency]) => answers(dependency, state.timeoutMs)));
        const checks: Record<string, 'ok' | 'failing'> = {};
        pinged.forEach(([name], i) => {
          const error = results[i];
          checks[name] = error ? 'failing' : 'ok';
          // The reason stays in the log: the probe is unauthenticated, and a driver's message may name hosts.
          if (error) request.log.warn({ dependency: name, err: error }, 'dependency not answering');
        });
        const sandboxes = health ? { sandboxes: { backend: health.backend, isolated: health.isolated } } : {};
        const failing = pinged.map(([name]) => name).filter((name) => checks[name] === 'failing');
        if (failing.length > 0) {
          const message = `Not answering: ${failing.join(', ')}`;
          return reply.code(503).send({ status: 'unavailable', message, checks, ...sandboxes });
        }
        return { status: 'ready', checks, ...sandboxes };
      },
    );
    app.get('/server_info', { schema: { tags, summary: 'Server info', response: { 200: ServerInfo } } }, async () => ({
      title: SERVER_TITLE,
      version: SERVER_VERSION,
      uptime: Math.floor((Date.now() - state.startedAt) / 1000),
      node_version: process.version,
      docs: '/docs',
      license: await state.license(),
    }));
  };
}

/** Undefined when `dependency` answers within `timeoutMs`, else why not. */
async function answers(dependency: Dependency, timeoutMs: number): Promise<Error | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<Error>((resolve) => {
    timer = setTimeout(() => resolve(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([
      dependency.ping().then(
        () => undefined,
        (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
