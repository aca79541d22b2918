import type { AgentServerClient } from '@bosun/client';
import { type Sandbox, agentClient } from '../sandboxes/index.ts';

/** A running sandbox's agent server, as the app reaches it. */
export interface AgentSource {
  url: string;
  key: string;
}

/** A conversation of the app: its id (the agent server's too) and its owner. */
export interface ConversationRef {
  id: string;
  userId: string;
}

/** How long one call to a sandbox's agent server may take. */
const AGENT_CALL_TIMEOUT_MS = 10_000;

/** Where to reach `sandbox`'s agent server, while it runs and this app holds its key. */
export function agentSourceOf(sandbox: Sandbox): AgentSource | undefined {
  const { agentServerUrl: url, sessionApiKey: key } = sandbox;
  return url && key ? { url, key } : undefined;
}

export function agentClientOf(source: AgentSource): AgentServerClient {
  return agentClient(source.url, source.key, AGENT_CALL_TIMEOUT_MS);
}
