import { CLOSE_INVALID_REQUEST, type ReplayQuery } from '@bosun/protocol';

/** What deciding the replay needs of a socket: telling the client, and closing. */
export interface ReplaySocket {
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

/**
 * The sequence number an event socket's replay starts after: the event `after_event_id` names, 0 (everything) with
 * `resend_mode=all`, or `undefined` (new events only). An `after_event_id` the conversation does not have is told
 * to the client as a `ConversationErrorEvent` (made by `transientEvent`) and closes the socket: `'closed'`.
 */
export async function replayStart(
  socket: ReplaySocket,
  query: ReplayQuery,
  seqOf: (eventId: string) => number | undefined | Promise<number | undefined>,
  transientEvent: (event: Record<string, unknown>) => string,
): Promise<number | undefined | 'closed'> {
  if (query.after_event_id !== undefined) {
    const seq = await seqOf(query.after_event_id);
    if (seq !== undefined) return seq;
    socket.send(
      transientEvent({
        kind: 'ConversationErrorEvent',
        code: 'UnknownEvent',
        detail: `after_event_id: no event with id ${query.after_event_id} in this conversation`,
      }),
    );
    socket.close(CLOSE_INVALID_REQUEST, 'Unknown after_event_id');
    return 'closed';
  }
  const resendAll = query.resend_mode === 'all' || (query.resend_mode === undefined && query.resend_all === 'true');
  return resendAll ? 0 : undefined;
}

/** A client's frame as JSON, or `undefined` when it is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
