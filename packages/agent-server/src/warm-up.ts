import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ResolvedStartRequest, StartConversationRequest, parse } from '@bosun/protocol';
import type { FastifyInstance } from 'fastify';
import { createAgentRunner } from './agent/agent-runner.ts';
import { ConversationService } from './conversations/service.ts';
import { startConversation } from './conversations/start.ts';
import { Store } from './store/store.ts';

/**
 * Pays, before the server answers ready, what its first conversation would otherwise pay on a user's first
 * message: the request validators of the routes a start uses (compiled on first use), and a throwaway
 * conversation started with the default tools in a store of its own (loading the agent's modules, its tools and
 * skills, the store's writes), removed after. Nothing of it is seen: no conversation, no event, no webhook.
 */
export async function warmUp(app: FastifyInstance, sessionApiKeys: readonly string[], tools: string[]): Promise<void> {
  const headers = sessionApiKeys[0] ? { 'x-session-api-key': sessionApiKeys[0] } : {};
  const id = randomUUID();
  // Each answered 422 or 404 (an invalid body, an unknown conversation), or a read: compiled, nothing changed.
  const requests = [
    { method: 'POST', url: '/api/conversations', payload: { workspace: 0 } },
    { method: 'POST', url: '/api/skills', payload: { load_public: 0 } },
    { method: 'POST', url: `/api/conversations/${id}/events`, payload: { content: 0 } },
    { method: 'GET', url: `/api/conversations/${id}` },
    { method: 'GET', url: `/api/conversations/${id}/events/search` },
    // What the app asks of a new sandbox before its conversation: its workspace (`pwd`), its tools.
    { method: 'POST', url: '/api/bash/execute_bash_command', payload: { command: 0 } },
    { method: 'GET', url: '/api/tools/' },
  ] as const;
  // Not requests anyone made: unlogged (the server does not listen yet, so no other request is quieted meanwhile).
  const level = app.log.level;
  app.log.level = 'warn';
  try {
    for (const request of requests) {
      const answer = await app.inject({ ...request, headers });
      if (answer.statusCode >= 500)
        throw new Error(`${request.method} ${request.url}: ${answer.statusCode} ${answer.body}`);
    }
  } finally {
    app.log.level = level;
  }
  await throwawayConversation(tools);
}

async function throwawayConversation(tools: string[]): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'bosun-warm-up-'));
  const dataDir = join(dir, 'data');
  const store = new Store(dataDir);
  const service = new ConversationService(store, { idleTtlMs: 60_000 });
  try {
    const request = parse(StartConversationRequest, {
      // Never called: the conversation is not run.
      agent: { llm: { model: 'warm-up', base_url: 'http://127.0.0.1:9/v1' }, tools: tools.map((name) => ({ name })) },
      workspace: { working_dir: join(dir, 'workspace') },
    }) as ResolvedStartRequest;
    await startConversation(service, createAgentRunner({ store, dataDir }), request, undefined);
  } finally {
    await service.close();
    store.close();
    await rm(dir, { recursive: true, force: true });
  }
}
