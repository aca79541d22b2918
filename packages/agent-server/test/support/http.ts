import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { expect } from 'vitest';
import { type ClientOptions, WebSocket } from 'ws';
import { startRequest } from './server.ts';

/** A response with its body parsed as JSON (or `undefined` when it is not JSON) and as text. */
export interface Reply<T = unknown> {
  status: number;
  body: T;
  text: string;
  headers: Headers | Record<string, string | string[] | undefined>;
}

export interface CallOptions {
  method?: string;
  /** Sent as JSON (with a JSON content type). */
  json?: unknown;
  /** Sent as is. */
  raw?: string;
  headers?: Record<string, string>;
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A request over real HTTP with Node's fetch. */
export async function call<T = unknown>(base: string, path: string, options: CallOptions = {}): Promise<Reply<T>> {
  const headers: Record<string, string> = { ...options.headers };
  let body: string | undefined;
  if (options.json !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.raw !== undefined) {
    body = options.raw;
  }
  const response = await fetch(`${base}${path}`, { method: options.method ?? 'GET', headers, body });
  const text = await response.text();
  return { status: response.status, body: parse(text) as T, text, headers: response.headers };
}

/** A GET with a body (which fetch refuses to send), through `node:http`. */
export function getWithBody<T = unknown>(
  base: string,
  path: string,
  body: string | undefined,
  headers: Record<string, string> = {},
): Promise<Reply<T>> {
  const allHeaders: Record<string, string | number> = { ...headers };
  if (body !== undefined) {
    allHeaders['content-type'] ??= 'application/json';
    // Node sends no Content-Length for a GET by itself, and no body is readable without one.
    allHeaders['content-length'] = Buffer.byteLength(body);
  }
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { method: 'GET', headers: allHeaders }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, body: parse(text) as T, text, headers: res.headers });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

export interface ConversationInfoBody {
  id: string;
  title: string | null;
  tags: Record<string, string>;
  execution_status: string;
  event_count: number;
  created_at: string;
  updated_at: string;
  last_user_message_id: string | null;
  agent: { llm: Record<string, unknown> };
  [key: string]: unknown;
}

export interface EventBody {
  id: string;
  kind: string;
  source: string;
  timestamp: string;
  [key: string]: unknown;
}

export interface Page<T> {
  items: T[];
  next_page_id: string | null;
}

/** Creates a conversation (201) and returns its info. */
export async function createConversation(
  base: string,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<ConversationInfoBody> {
  const reply = await call<ConversationInfoBody>(base, '/api/conversations', {
    method: 'POST',
    json: startRequest({ conversation_id: randomUUID(), ...extra }),
    headers,
  });
  expect(reply.status, reply.text).toBe(201);
  return reply.body;
}

/** Appends a user message over REST (200). */
export async function sendMessage(
  base: string,
  conversationId: string,
  text: string,
  options: { run?: boolean; headers?: Record<string, string> } = {},
): Promise<void> {
  const reply = await call(base, `/api/conversations/${conversationId}/events`, {
    method: 'POST',
    json: { role: 'user', content: [{ type: 'text', text }], ...(options.run ? { run: true } : {}) },
    headers: options.headers ?? {},
  });
  expect(reply.status, reply.text).toBe(200);
}

/** Every event of a conversation in log order, following `next_page_id` over REST. */
export function allEvents(base: string, conversationId: string, query = ''): Promise<EventBody[]> {
  const search = `/api/conversations/${conversationId}/events/search`;
  return allPages((params) => call<Page<EventBody>>(base, `${search}?${params}`), new URLSearchParams(query), 100);
}

/** Every item of a paged search (each page 200), `limit` at a time, following `next_page_id`. */
export async function allPages<T>(
  page: (params: URLSearchParams) => Promise<Pick<Reply<Page<T>>, 'status' | 'body' | 'text'>>,
  query: URLSearchParams,
  limit: number,
): Promise<T[]> {
  const items: T[] = [];
  let pageId: string | null = null;
  do {
    const params = new URLSearchParams(query);
    params.set('limit', String(limit));
    if (pageId) params.set('page_id', pageId);
    const reply = await page(params);
    expect(reply.status, reply.text).toBe(200);
    items.push(...reply.body.items);
    pageId = reply.body.next_page_id;
  } while (pageId);
  return items;
}

/** Resolves once `check` holds (polled), or fails after `timeoutMs`. */
export async function eventually(check: () => Promise<boolean> | boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Resolves once the conversation's `execution_status` is `status` (polled over REST), or fails as `eventually`. */
export async function untilStatus(base: string, conversationId: string, status: string): Promise<void> {
  await eventually(
    async () =>
      (await call<ConversationInfoBody>(base, `/api/conversations/${conversationId}`)).body.execution_status === status,
  );
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The `ws://` URL of a conversation's event socket. */
export function socketUrl(base: string, conversationId: string, query: Record<string, string> = {}): string {
  const qs = new URLSearchParams(query).toString();
  return `${base.replace(/^http/, 'ws')}/sockets/events/${conversationId}${qs ? `?${qs}` : ''}`;
}

/** A WebSocket client that records every frame (parsed) and how the socket closed. */
export class SocketClient {
  readonly frames: EventBody[] = [];
  readonly ws: WebSocket;
  readonly opened: Promise<void>;
  readonly closed: Promise<{ code: number; reason: string }>;
  private waiters: (() => void)[] = [];

  constructor(url: string, options: ClientOptions = {}) {
    this.ws = new WebSocket(url, options);
    this.ws.on('message', (data) => {
      this.frames.push(JSON.parse(data.toString()) as EventBody);
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.opened = new Promise((resolve, reject) => {
      this.ws.once('open', () => resolve());
      this.ws.once('error', reject);
    });
    this.closed = new Promise((resolve) => {
      this.ws.once('close', (code, reason) => {
        resolve({ code, reason: reason.toString() });
        for (const wake of this.waiters.splice(0)) wake();
      });
    });
    // Errors surface through `opened` / `closed`; never as an unhandled event or rejection.
    this.ws.on('error', () => undefined);
    this.opened.catch(() => undefined);
  }

  /** Waits until `predicate` holds for the frames received so far. */
  async until(predicate: (frames: EventBody[]) => boolean, timeoutMs = 5000): Promise<EventBody[]> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate(this.frames)) {
      if (this.ws.readyState === WebSocket.CLOSED) throw new Error(`socket closed; frames: ${this.frames.length}`);
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new Error(`timed out; frames: ${JSON.stringify(this.frames).slice(0, 2000)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, remaining);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.frames;
  }

  send(frame: unknown): void {
    this.ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  /** Closes (politely, or abruptly without a close handshake) and waits for the close to complete. */
  async close(abrupt = false): Promise<void> {
    if (this.ws.readyState === WebSocket.CLOSED) return;
    if (abrupt || this.ws.readyState === WebSocket.CONNECTING) this.ws.terminate();
    else this.ws.close();
    await this.closed;
  }
}

/** Whether a frame is a `full_state` snapshot (sent on the socket only, never in the log). */
export function isFullState(frame: EventBody): boolean {
  return frame.kind === 'ConversationStateUpdateEvent' && frame.key === 'full_state';
}
