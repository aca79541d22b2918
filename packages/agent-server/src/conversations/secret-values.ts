import { type LookupSecretSource, isLookupSecret } from '@bosun/protocol';
import type { Conversation } from './conversation.ts';
import { lookUpSecret } from './lookup-secret.ts';

/**
 * The values of each conversation's LookupSecrets as last looked up: in memory only (never stored), so that what
 * the shell holds is still masked in what tools return, and so the tools read synchronously (Git credentials of
 * plugins and skills, MCP `${NAME}`) have them. They are looked up again before each terminal command.
 */
const lookedUp = new WeakMap<Conversation, Map<string, string>>();

/** Secret values by name, whichever form they were given in (a LookupSecret's as last looked up, if ever). */
export function secretValues(conversation: Conversation): Record<string, string> {
  const values: Record<string, string> = {};
  const known = lookedUp.get(conversation);
  for (const [name, secret] of Object.entries(conversation.record.request.secrets)) {
    if (!isLookupSecret(secret)) values[name] = typeof secret === 'string' ? secret : secret.value;
    else if (known?.has(name)) values[name] = known.get(name) as string;
  }
  return values;
}

/**
 * Secret values by name with every LookupSecret looked up now (all at once); rejects with a SecretLookupError
 * when one fails (the others' new values are kept all the same).
 */
export async function currentSecretValues(
  conversation: Conversation,
  signal?: AbortSignal,
): Promise<Record<string, string>> {
  const lookups = Object.entries(conversation.record.request.secrets).filter(
    (entry): entry is [string, LookupSecretSource] => isLookupSecret(entry[1]),
  );
  const results = await Promise.allSettled(
    lookups.map(async ([name, source]) => {
      const value = await lookUpSecret(name, source, signal);
      // The source may have been replaced while it was looked up: the value of the old one is kept for nothing.
      if (conversation.record.request.secrets[name] !== source) return;
      const known = lookedUp.get(conversation) ?? new Map<string, string>();
      lookedUp.set(conversation, known);
      known.set(name, value);
    }),
  );
  const failed = results.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
  return secretValues(conversation);
}
