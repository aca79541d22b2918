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

/** What waiting on a socket's send buffer needs of it. */
export interface BufferedSocket {
  readonly bufferedAmount: number;
  readonly readyState: number;
  readonly OPEN: number;
}

/**
 * Resolves when the socket's send buffer is under 1 MiB again (or the socket is no longer open), so a long
 * replay waits for a slow client instead of buffering the whole log; at once (next turn) when it already is.
 */
export function drained(socket: BufferedSocket): Promise<void> {
  if (socket.bufferedAmount < 1 << 20) return new Promise((resolve) => setImmediate(resolve));
  return new Promise((resolve) => {
    const check = () =>
      socket.bufferedAmount < 1 << 20 || socket.readyState !== socket.OPEN ? resolve() : setTimeout(check, 5);
    check();
  });
}
