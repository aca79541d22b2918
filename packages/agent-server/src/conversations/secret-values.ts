import type { Conversation } from './conversation.ts';

/** Secret values by name, whichever form they were given in. */
export function secretValues(conversation: Conversation): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, secret] of Object.entries(conversation.record.request.secrets)) {
    values[name] = typeof secret === 'string' ? secret : secret.value;
  }
  return values;
}
