import type { ServerResponse } from 'node:http';
import { type Body, buildAnswer } from './answer.ts';
import { type ApiAdapter, formatSse } from './apis/adapter.ts';
import { ids } from './ids.ts';
import type { Turn } from './script.ts';

/** Cancellable pauses, so that close() never waits for a delay to run out. */
export class Sleeper {
  #pending = new Set<{ timer: NodeJS.Timeout; resolve: () => void }>();
  #closed = false;

  get closed(): boolean {
    return this.#closed;
  }

  sleep(ms: number): Promise<void> {
    if (ms <= 0 || this.#closed) return Promise.resolve();
    return new Promise((resolve) => {
      const entry = {
        timer: setTimeout(() => {
          this.#pending.delete(entry);
          resolve();
        }, ms),
        resolve,
      };
      this.#pending.add(entry);
    });
  }

  close(): void {
    this.#closed = true;
    for (const entry of this.#pending) {
      clearTimeout(entry.timer);
      entry.resolve();
    }
    this.#pending.clear();
  }
}

/** True once the client has gone or the response has been sent. */
export function isGone(res: ServerResponse): boolean {
  return res.destroyed || res.writableEnded || res.socket === null || res.socket.destroyed;
}

export function requestHeaders(api?: ApiAdapter): Record<string, string> {
  const id = ids.request();
  return api?.name === 'messages' ? { 'request-id': id } : { 'x-request-id': id };
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  if (isGone(res)) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
};

/** Answers one API request with a scripted turn: after its delay, an error, garbage, silence or the answer. */
export async function answerTurn(options: {
  res: ServerResponse;
  api: ApiAdapter;
  body: Body;
  turn: Turn;
  turnIndex: number;
  model: string;
  sleeper: Sleeper;
  onStreamEvent?: (event: { turnIndex: number; index: number; data: string }) => void;
}): Promise<void> {
  const { res, api, body, turn, turnIndex, sleeper } = options;
  await sleeper.sleep(turn.delay_ms ?? 0);
  if (sleeper.closed || isGone(res)) return;
  if (turn.hang) return; // Never answer; close() ends the connection.
  const stream = api.isStream(body);
  if (turn.error) {
    const { status, body: errorBody, headers } = turn.error;
    const extra = { ...requestHeaders(api), ...headers };
    if (typeof errorBody === 'string') {
      res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...extra });
      res.end(errorBody);
      return;
    }
    const fallback = api.errorBody(status, `llm-replay: scripted error ${status} (turn ${turnIndex})`);
    sendJson(res, status, errorBody === undefined ? fallback : errorBody, extra);
    return;
  }
  if (turn.malformed !== undefined && turn.malformed !== false) {
    const text = typeof turn.malformed === 'string' ? turn.malformed : api.malformed(stream);
    res.writeHead(200, stream ? SSE_HEADERS : { 'content-type': 'application/json', ...requestHeaders(api) });
    res.end(text);
    return;
  }
  const answer = buildAnswer(turn, { model: options.model, promptText: api.promptText(body) });
  if (!stream) {
    sendJson(res, 200, api.render(answer, body), requestHeaders(api));
    return;
  }
  res.writeHead(200, { ...SSE_HEADERS, ...requestHeaders(api) });
  const events = api.renderStream(answer, body);
  for (const [i, event] of events.entries()) {
    if (i > 0) await sleeper.sleep(turn.stream_delay_ms ?? 0);
    if (sleeper.closed || isGone(res)) return;
    if (i === turn.stream_cut_after) {
      res.socket?.end(); // Broken off: what was sent is flushed, then the connection ends without the last chunk.
      return;
    }
    res.write(formatSse(event));
    options.onStreamEvent?.({ turnIndex, index: i, data: event.data });
  }
  res.end();
}
