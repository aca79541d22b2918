import { type ConversationInfo, type StoredEvent, type StreamFrame, isStreamFrame } from '@bosun/protocol';
import { BosunSocketError } from './errors.ts';
import { queryString } from './http.ts';
import { type Incoming, type SocketConnection, connect } from './socket-connection.ts';

export interface ReconnectOptions {
  /** The first wait after a dropped connection (default 100 ms); it doubles per failed attempt. */
  initialDelayMs?: number;
  /** The longest wait (default 5 s). */
  maxDelayMs?: number;
  /** Failed attempts in a row before giving up with a `BosunSocketError` (default 20; Infinity: never). */
  maxAttempts?: number;
}

export interface FollowEventsOptions {
  /** Deliver the events after this one (exclusive). */
  afterEventId?: string;
  /** Without `afterEventId`: deliver every stored event first (default: only the events from now on). */
  fromStart?: boolean;
  /** Stops following (the iterator ends). */
  signal?: AbortSignal;
  /** The conversation as it was at each (re)connection. */
  onSnapshot?: (conversation: ConversationInfo) => void;
  /** A connection dropped: the next attempt is in `delayMs`. */
  onReconnect?: (info: { attempt: number; delayMs: number; reason: string }) => void;
  reconnect?: ReconnectOptions;
  /** A connection that answers no ping for this long is dropped and reopened (default 15 s; 0: no pings). */
  heartbeatMs?: number;
  /**
   * Ask for stream frames too (`?stream=true`): the agent's answer as the LLM writes it, given to `onStream`
   * (never yielded: they are not events). A stream ends `done` (its events follow) or `discarded`.
   */
  stream?: boolean;
  onStream?: (frame: StreamFrame) => void;
}

/** The server refuses for good: bad key, unknown conversation, unknown `after_event_id`. */
const FINAL_CLOSE_CODES = new Set([4001, 4004, 4022]);

/** Where a (re)connection starts: after an event, from the start (skipping what was already seen), or now. */
interface Cursor {
  afterEventId?: string;
  /** Stored events to replay and drop (seen before: the log had this many when following began). */
  skip?: number;
}

/**
 * The events of an event socket (`/sockets/events/{id}` of the agent server) as an async iterator. Each frame
 * after the first (the `full_state` snapshot) is a stored event; after a drop the socket is reopened after the
 * last one delivered, so every event comes once, in log order.
 */
export async function* followEvents(
  options: FollowEventsOptions & { url: string; headers: Record<string, string> },
): AsyncGenerator<StoredEvent, void, undefined> {
  const { signal } = options;
  const path = new URL(options.url).pathname;
  const reconnect = { initialDelayMs: 100, maxDelayMs: 5000, maxAttempts: 20, ...options.reconnect };
  let cursor: Cursor | undefined = options.afterEventId
    ? { afterEventId: options.afterEventId }
    : options.fromStart
      ? { skip: 0 }
      : undefined;
  let failures = 0;
  while (!signal?.aborted) {
    const query = socketQuery(cursor, options.stream === true);
    const connection = connect(`${options.url}${query}`, options.headers, options.heartbeatMs ?? 15_000);
    // Replayed events this connection drops; a connection from now replays nothing.
    let skip = cursor?.skip ?? 0;
    const stop = () => connection.close();
    signal?.addEventListener('abort', stop, { once: true });
    let ended: Incoming & { type: 'closed' };
    try {
      const first = await connection.next();
      if (first.type === 'frame') {
        const frame = JSON.parse(first.data) as StoredEvent;
        const snapshot = fullState(frame);
        if (snapshot) {
          failures = 0;
          // Following from now: what the log held at the first snapshot is what a reconnection skips.
          cursor ??= { skip: snapshot.event_count };
          options.onSnapshot?.(snapshot);
        } else if (frame.kind === 'ConversationErrorEvent') {
          throw new BosunSocketError(path, frame.detail, 4022);
        }
      }
      let incoming = first;
      while (incoming.type === 'frame' && !signal?.aborted) {
        incoming = await connection.next();
        if (incoming.type !== 'frame') break;
        const frame: unknown = JSON.parse(incoming.data);
        if (isStreamFrame(frame)) {
          options.onStream?.(frame);
          continue;
        }
        const event = frame as StoredEvent;
        if (skip > 0) {
          skip -= 1;
          continue;
        }
        cursor = { afterEventId: event.id };
        yield event;
      }
      ended = incoming.type === 'closed' ? incoming : await connection.next().then(closedOf);
    } finally {
      signal?.removeEventListener('abort', stop);
      connection.close();
    }
    if (signal?.aborted) return;
    const reason = closeReason(ended);
    if (isFinal(ended)) throw new BosunSocketError(path, reason, ended.code, { cause: ended.error });
    failures += 1;
    if (failures > reconnect.maxAttempts) {
      throw new BosunSocketError(path, `gave up after ${failures - 1} attempts: ${reason}`, ended.code, {
        cause: ended.error,
      });
    }
    const delayMs = backoff(failures, reconnect.initialDelayMs, reconnect.maxDelayMs);
    options.onReconnect?.({ attempt: failures, delayMs, reason });
    await sleep(delayMs, signal);
  }
}

function socketQuery(cursor: Cursor | undefined, stream: boolean): string {
  const streamed = stream ? { stream: 'true' } : {};
  if (cursor?.afterEventId) return queryString({ after_event_id: cursor.afterEventId, ...streamed });
  return queryString(cursor ? { resend_mode: 'all', ...streamed } : streamed);
}

function fullState(frame: StoredEvent): ConversationInfo | undefined {
  if (frame.kind !== 'ConversationStateUpdateEvent' || frame.key !== 'full_state') return undefined;
  return frame.value as ConversationInfo;
}

function closedOf(incoming: Incoming): Incoming & { type: 'closed' } {
  return incoming.type === 'closed' ? incoming : { type: 'closed', code: 1005, reason: '', error: undefined };
}

function closeReason(closed: Incoming & { type: 'closed' }): string {
  if (closed.error) return closed.error.message;
  return `closed (${closed.code}${closed.reason ? `: ${closed.reason}` : ''})`;
}

/** A close the server meant (its codes), or an upgrade it refused with a 4xx (other than 429). */
function isFinal(closed: Incoming & { type: 'closed' }): boolean {
  if (FINAL_CLOSE_CODES.has(closed.code)) return true;
  const status = /Unexpected server response: (\d+)/.exec(closed.error?.message ?? '')?.[1] ?? '';
  return status.startsWith('4') && status !== '429';
}

/** Exponential, with jitter in its upper half (replicas that lost the same server do not return together). */
function backoff(attempt: number, initialMs: number, maxMs: number): number {
  const ceiling = Math.min(maxMs, initialMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
