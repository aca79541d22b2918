import { AgentServerClient, BosunApiError } from '@bosun/client';
import type { Sandbox } from './sandboxes.ts';

/** Clients kept per agent server, key and timeout: each holds its keep-alive connections (a new one per call costs a connect). */
const clients = new Map<string, AgentServerClient>();
const MAX_CLIENTS = 1_000;

/** A client of the agent server at `baseUrl` with `sessionApiKey`, reused across calls. */
export function agentClient(baseUrl: string, sessionApiKey: string, timeoutMs = 30_000): AgentServerClient {
  const key = `${baseUrl} ${sessionApiKey} ${timeoutMs}`;
  let client = clients.get(key);
  if (!client) {
    // The oldest goes first: a resumed sandbox has a new key (and address), so its old client is never asked again.
    if (clients.size >= MAX_CLIENTS) clients.delete(clients.keys().next().value as string);
    client = new AgentServerClient({ baseUrl, sessionApiKey, timeoutMs });
    clients.set(key, client);
  }
  return client;
}

/** A client of the sandbox's agent server, while it runs. */
export function agentOf(sandbox: Sandbox | undefined): AgentServerClient | undefined {
  if (sandbox?.status !== 'RUNNING' || !sandbox.agentServerUrl || !sandbox.sessionApiKey) return undefined;
  return agentClient(sandbox.agentServerUrl, sandbox.sessionApiKey);
}

/**
 * Whether the sandbox's agent server still has conversation `id`: false only when it says it has not (404). A
 * webhook for a conversation the app has no row of is taken as a conversation started on the agent server only
 * when this holds, so a post still in flight when the app deleted the conversation does not bring it back.
 */
export async function agentStillHas(sandbox: Sandbox, id: string): Promise<boolean> {
  const agent = agentOf(sandbox);
  if (!agent) return true;
  try {
    await agent.get('/api/conversations/{conversation_id}', { params: { conversation_id: id } });
    return true;
  } catch (error) {
    return !(error instanceof BosunApiError && error.status === 404);
  }
}
