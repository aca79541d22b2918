import { type LlmReplay, type Script, startLlmReplay } from '../src/index.ts';

const servers: LlmReplay[] = [];

/** Starts a server on a free port; closeServers() (in afterEach) stops every one started. */
export async function start(script: Script): Promise<LlmReplay> {
  const server = await startLlmReplay({ script });
  servers.push(server);
  return server;
}

export async function closeServers(): Promise<void> {
  await Promise.all(servers.splice(0).map((server) => server.close()));
}

export async function post(
  url: string,
  body: unknown,
  init: { headers?: Record<string, string>; signal?: AbortSignal } = {},
): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...init.headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...(init.signal ? { signal: init.signal } : {}),
  });
}

// biome-ignore lint/suspicious/noExplicitAny: tests read wire JSON loosely and assert on it.
export type Json = any;

export async function postJson(url: string, body: unknown, headers?: Record<string, string>) {
  const res = await post(url, body, headers ? { headers } : {});
  return { status: res.status, headers: res.headers, body: (await res.json()) as Json };
}

export interface ParsedEvent {
  event?: string;
  data: string;
}

/** Splits an SSE body on blank lines; each event keeps its `event:` name and its joined `data:` lines. */
export function parseSse(text: string): ParsedEvent[] {
  return text
    .split(/\n\n/)
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const parsed: ParsedEvent = { data: '' };
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event: ')) parsed.event = line.slice('event: '.length);
        else if (line.startsWith('data: ')) data.push(line.slice('data: '.length));
      }
      parsed.data = data.join('\n');
      return parsed;
    });
}

/** POSTs a streaming request and returns the response and its parsed events. */
export async function stream(url: string, body: Record<string, unknown>, headers?: Record<string, string>) {
  const res = await post(url, { ...body, stream: true }, headers ? { headers } : {});
  const text = await res.text();
  return { status: res.status, contentType: res.headers.get('content-type'), text, events: parseSse(text) };
}

/** The JSON payloads of parsed events, skipping a `[DONE]` sentinel. */
export function payloads(events: ParsedEvent[]): Json[] {
  return events.filter((e) => e.data !== '[DONE]').map((e) => JSON.parse(e.data));
}

/** One API of the servers a test starts (`path` under their `/v1`), called with the same headers every time. */
export function endpoint(path: string, headers?: Record<string, string>) {
  const api = {
    postJson: (server: LlmReplay, body: unknown) => postJson(server.baseUrl + path, body, headers),
    stream: (server: LlmReplay, body: Record<string, unknown>) => stream(server.baseUrl + path, body, headers),
    /** Starts a server playing `script` and POSTs `body` to it: the server and its answer. */
    async ask(script: Script, body: unknown) {
      const server = await start(script);
      return { server, ...(await api.postJson(server, body)) };
    },
    /** Starts a server playing `script` and streams `body` from it: the server and the stream. */
    async askStreaming(script: Script, body: Record<string, unknown>) {
      const server = await start(script);
      return { server, ...(await api.stream(server, body)) };
    },
  };
  return api;
}
