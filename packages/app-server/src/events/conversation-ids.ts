/** Conversation ids: UUIDs, dashed and lower case in answers and rows; 32 hex digits accepted on input. */

const HEX = /^[0-9a-f]{32}$/;
const DASHED = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The dashed, lower-case form of a conversation id; undefined when `text` is not a UUID in either form. */
export function conversationIdOf(text: string): string | undefined {
  const lower = text.toLowerCase();
  if (DASHED.test(lower)) return lower;
  if (!HEX.test(lower)) return undefined;
  return `${lower.slice(0, 8)}-${lower.slice(8, 12)}-${lower.slice(12, 16)}-${lower.slice(16, 20)}-${lower.slice(20)}`;
}

/** The id as 32 hex digits: the id of a sandbox started for the conversation. */
export function hexOf(id: string): string {
  return id.replaceAll('-', '');
}
