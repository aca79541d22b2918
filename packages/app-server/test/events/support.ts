import { randomUUID } from 'node:crypto';
import { AgentServerClient } from '@bosun/client';
import type { Api } from '../api/harness.ts';

/** A stored-looking event (it has an id and a timestamp, as an agent server sends them). */
export function pauseEvent(at: number, id: string = randomUUID()) {
  return { kind: 'PauseEvent', id, timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, at)).toISOString(), source: 'user' };
}

export function errorEvent(at: number, code: string, id: string = randomUUID()) {
  const timestamp = new Date(Date.UTC(2026, 0, 1, 0, 0, at)).toISOString();
  return { kind: 'ConversationErrorEvent', id, timestamp, source: 'environment', code, detail: `detail ${code}` };
}

/** A conversation row of `userId` in `sandboxId`, as the start task makes it (before the agent server has it). */
export async function newConversation(
  api: Api,
  userId: string,
  sandboxId: string | null,
  id: string = randomUUID(),
): Promise<string> {
  const now = new Date().toISOString();
  await api.repositories.conversations.insert([
    { id, user_id: userId, org_id: null, sandbox_id: sandboxId, title: null, created_at: now, updated_at: now },
  ]);
  return id;
}

/**
 * Starts conversation `id` on the running sandbox's agent server directly (no LLM call: no message), as a client of
 * the agent server would, so the app may take the sandbox's reports of it.
 */
export async function startOnAgent(
  api: Api,
  sandbox: { id: string; agentServerUrl: string | null; sessionApiKey: string | null },
  id: string = randomUUID(),
): Promise<string> {
  const agent = new AgentServerClient({
    baseUrl: sandbox.agentServerUrl as string,
    sessionApiKey: sandbox.sessionApiKey as string,
  });
  await agent.post('/api/conversations', {
    body: {
      conversation_id: id,
      agent: { llm: { model: 'openai/unused', api_key: 'sk-unused' }, tools: [] },
      workspace: { working_dir: await api.workspaceOf(sandbox.id) },
    },
  });
  return id;
}
