import type { SecretSource } from '@bosun/protocol';
import { type Sandbox, agentClient } from '../sandboxes/index.ts';
import { sandboxLookupSecret } from '../settings/sandbox-secrets.ts';

/** How long the agent server may take to answer while its lookups are renewed. */
const RENEW_TIMEOUT_MS = 30_000;

/**
 * A sandbox that runs again has a new session key, and the LookupSecrets its conversations were started with
 * carry the old one: each that points at this app's sandbox secrets route (as a start made it) is given again
 * with the new key. Other secrets, and lookups elsewhere, are left as they are. Nothing without the app's URL.
 */
export async function renewLookupKeys(sandbox: Sandbox, appUrl: string | undefined): Promise<void> {
  const { agentServerUrl, sessionApiKey } = sandbox;
  if (!appUrl || !agentServerUrl || !sessionApiKey) return;
  const agent = agentClient(agentServerUrl, sessionApiKey, RENEW_TIMEOUT_MS);
  for await (const conversation of agent.iterateConversations()) {
    const sources = (conversation.secret_registry as { secret_sources?: Record<string, SecretSourceShown> })
      .secret_sources;
    const renewed: Record<string, SecretSource> = {};
    for (const [name, source] of Object.entries(sources ?? {})) {
      const lookup = sandboxLookupSecret(appUrl, { id: sandbox.id, sessionApiKey }, name, source.description);
      if (source.kind !== 'LookupSecret' || source.url !== lookup.url) continue;
      renewed[name] = lookup;
    }
    if (Object.keys(renewed).length > 0)
      await agent.post('/api/conversations/{conversation_id}/secrets', {
        params: { conversation_id: conversation.id },
        body: { secrets: renewed },
      });
  }
}

/** A secret as the agent server shows it (values and header values redacted). */
interface SecretSourceShown {
  kind?: string;
  url?: string;
  description?: string | null;
}
