import { AgentServerClient, BosunApiError } from '@bosun/client';
import type { Sandbox } from './sandboxes.ts';

/** A client of the sandbox's agent server, while it runs. */
export function agentOf(sandbox: Sandbox | undefined): AgentServerClient | undefined {
  if (sandbox?.status !== 'RUNNING' || !sandbox.agentServerUrl || !sandbox.sessionApiKey) return undefined;
  return new AgentServerClient({
    baseUrl: sandbox.agentServerUrl,
    sessionApiKey: sandbox.sessionApiKey,
    timeoutMs: 30_000,
  });
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
    await agent.getConversation(id);
    return true;
  } catch (error) {
    return !(error instanceof BosunApiError && error.status === 404);
  }
}
