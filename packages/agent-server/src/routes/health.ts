import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { SERVER_TITLE, SERVER_VERSION } from '../server-info.ts';

const Status = Type.Object({ status: Type.String(), message: Type.Optional(Type.String()) });

const ServerInfo = Type.Object({
  title: Type.String(),
  version: Type.String(),
  uptime: Type.Integer({ description: 'Seconds since start.' }),
  idle_time: Type.Integer({
    description:
      'Seconds since the last activity: an event other than a state update appended to any conversation (or the start).',
  }),
  node_version: Type.String(),
  docs: Type.String(),
});

export interface HealthState {
  startedAt: number;
  ready: () => boolean;
  /** When the server was last active (ms since the epoch). */
  lastActivityAt: () => number;
}

/** Liveness, readiness and facts about the server; never behind auth. */
export function healthRoutes(app: FastifyInstance, state: HealthState): void {
  const tags = ['Server details'];
  app.get('/alive', { schema: { tags, summary: 'Alive', response: { 200: Status } } }, async () => ({ status: 'ok' }));
  app.get('/health', { schema: { tags, summary: 'Health', response: { 200: Status } } }, async () => ({
    status: 'ok',
  }));
  app.get(
    '/ready',
    { schema: { tags, summary: 'Ready (503 while starting)', response: { 200: Status, 503: Status } } },
    async (_request, reply) =>
      state.ready()
        ? { status: 'ready' }
        : reply.code(503).send({ status: 'initializing', message: 'Server is still initializing' }),
  );
  const serverInfo = async () => {
    const now = Date.now();
    return {
      title: SERVER_TITLE,
      version: SERVER_VERSION,
      uptime: Math.floor((now - state.startedAt) / 1000),
      idle_time: Math.floor((now - state.lastActivityAt()) / 1000),
      node_version: process.version,
      docs: '/docs',
    };
  };
  app.get('/server_info', { schema: { tags, summary: 'Server info', response: { 200: ServerInfo } } }, serverInfo);
  app.get(
    '/',
    { schema: { tags, summary: 'Server info (as /server_info)', response: { 200: ServerInfo } } },
    serverInfo,
  );
}
