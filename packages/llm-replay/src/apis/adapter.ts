import type { Answer, Body } from '../answer.ts';

/** One server-sent event; `event` is omitted for the Chat Completions stream, which has only `data:` lines. */
export interface SseEvent {
  event?: string;
  data: string;
}

export type ApiName = 'chat_completions' | 'responses' | 'messages';

/** What the server needs to know about one wire format. */
export interface ApiAdapter {
  name: ApiName;
  /** Text of the last user message that has text, if any. */
  lastUserText(body: Body): string | undefined;
  /** Text of the last tool result, if any. */
  lastToolResultText(body: Body): string | undefined;
  /** The request's conversation as text, for token estimates. */
  promptText(body: Body): string;
  isStream(body: Body): boolean;
  render(answer: Answer, body: Body): unknown;
  renderStream(answer: Answer, body: Body): SseEvent[];
  errorBody(status: number, message: string): unknown;
  /** A 200 body that is not valid JSON (or a stream whose data is not). */
  malformed(stream: boolean): string;
}

export function formatSse(event: SseEvent): string {
  return `${event.event !== undefined ? `event: ${event.event}\n` : ''}data: ${event.data}\n\n`;
}

/** An SSE event whose data is JSON and whose name, if any, repeats the payload's `type`. */
export function jsonEvent(payload: Record<string, unknown>, named = true): SseEvent {
  const data = JSON.stringify(payload);
  return named ? { event: String(payload.type), data } : { data };
}
