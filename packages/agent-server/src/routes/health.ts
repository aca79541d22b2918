import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';

export const SERVER_TITLE = 'Bosun Agent Server';
export const SERVER_VERSION = '0.1.0';

const Status = Type.Object({ status: Type.String(), message: Type.Optional(Type.String()) });

/** Liveness, readiness and facts about the server; never behind auth. */
export function healthRoutes(app: FastifyInstance, state: { startedAt: number; ready: () => boolean }): void {
  const tags = ['Server details'];
  app.get('/alive', { schema: { tags, response: { 200: Status } } }, async () => ({ status: 'ok' }));
  app.get('/health', { schema: { tags, response: { 200: Status } } }, async () => ({ status: 'ok' }));
  app.get('/ready', { schema: { tags, response: { 200: Status, 503: Status } } }, async (_request, reply) =>
    state.ready()
      ? { status: 'ready' }
      : reply.code(503).send({ status: 'initializing', message: 'Server is still initializing' }),
  );
  app.get(
    '/server_info',
    {
      schema: {
        tags,
        response: {
          200: Type.Object({
            title: Type.String(),
            version: Type.String(),
            uptime: Type.Integer({ description: 'Seconds since start.' }),
            node_version: Type.String(),
            docs: Type.String(),
          }),
        },
      },
    },
    async () => ({
      title: SERVER_TITLE,
      version: SERVER_VERSION,
      uptime: Math.floor((Date.now() - state.startedAt) / 1000),
      node_version: process.version,
      docs: '/docs',
    }),
  );
}
