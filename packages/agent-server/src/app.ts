import websocket from '@fastify/websocket';
import Fastify, { type FastifyInstance } from 'fastify';
import type { AgentRunner } from './conversations/runner.ts';
import { idleRunner } from './conversations/runner.ts';
import { ConversationService } from './conversations/service.ts';
import { installSessionAuth } from './http/auth.ts';
import { installErrorHandlers } from './http/errors.ts';
import { validatorCompiler } from './http/validation.ts';
import { installOpenApi } from './openapi.ts';
import { conversationRoutes } from './routes/conversations.ts';
import { eventRoutes } from './routes/events.ts';
import { healthRoutes } from './routes/health.ts';
import { socketRoutes } from './routes/sockets.ts';
import { Store } from './store/store.ts';

export interface AgentServerOptions {
  dataDir: string;
  sessionApiKeys?: string[];
  /** Conversations idle this long are dropped from memory (they stay on disk). */
  idleTtlMs?: number;
  runner?: AgentRunner;
  logger?: boolean | object;
}

export interface AgentServer {
  app: FastifyInstance;
  service: ConversationService;
  close(): Promise<void>;
}

/** Builds the agent server: opens the store, recovers interrupted conversations and registers every route. */
export async function buildAgentServer(options: AgentServerOptions): Promise<AgentServer> {
  const startedAt = Date.now();
  let ready = false;
  const store = new Store(options.dataDir);
  const service = new ConversationService(store, { idleTtlMs: options.idleTtlMs ?? 20 * 60_000 });
  const runner = options.runner ?? idleRunner;
  const sessionApiKeys = options.sessionApiKeys ?? [];

  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: 32 * 1024 * 1024,
    exposeHeadRoutes: false,
    ajv: { customOptions: { strict: false } },
  });
  app.addHttpMethod('GET', { hasBody: true, overrideExisting: true });
  app.setValidatorCompiler(validatorCompiler());
  installErrorHandlers(app);
  installSessionAuth(app, sessionApiKeys);
  await installOpenApi(app);
  await app.register(websocket);

  healthRoutes(app, { startedAt, ready: () => ready });
  conversationRoutes(app, { service, runner });
  eventRoutes(app, { service, runner });
  socketRoutes(app, { service, runner, sessionApiKeys });

  await service.recover();
  service.startEvictions();
  ready = true;
  return {
    app,
    service,
    async close() {
      await app.close();
      await service.close();
      store.close();
    },
  };
}
