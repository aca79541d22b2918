import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AgentServer, type AgentServerOptions, buildAgentServer } from '@bosun/agent-server';
import { type LlmReplay, type RecordedRequest, type Script, startLlmReplay } from '@bosun/llm-replay';
import { expect, onTestFinished } from 'vitest';

/** What the HTTP API answered: status, body parsed as JSON when it is JSON, and the raw text. */
export interface Reply<T = unknown> {
  status: number;
  body: T;
  text: string;
}

export interface EventBody {
  id: string;
  kind: string;
  source: string;
  timestamp: string;
  [key: string]: unknown;
}

export type ActionEventBody = EventBody & {
  kind: 'ActionEvent';
  thought: { type: string; text: string }[];
  action: ({ kind: string } & Record<string, unknown>) | null;
  tool_name: string;
  tool_call_id: string;
  tool_call: { id: string; name: string; arguments: string; origin: string };
  llm_response_id: string;
  summary?: string | null;
  reasoning_content?: string | null;
  thinking_blocks: Record<string, unknown>[];
  responses_reasoning_item?: Record<string, unknown> | null;
};

export type ObservationEventBody = EventBody & {
  kind: 'ObservationEvent';
  tool_name: string;
  tool_call_id: string;
  action_id: string;
  observation: { kind: string; content: { type: string; text: string }[]; is_error: boolean } & Record<string, unknown>;
};

export interface ConversationInfo {
  id: string;
  execution_status: string;
  [key: string]: unknown;
}

/** Every status a run ends in (the run loop has stopped). */
export const SETTLED = ['finished', 'error', 'stuck', 'paused', 'idle', 'waiting_for_confirmation'];

/** An agent server (its default runner: the real agent) on a free loopback port, with its own directories. */
export interface E2EServer {
  url: string;
  dataDir: string;
  /** A fresh workspace (its real path; created by the agent when a conversation starts). */
  workspace: string;
  /** A directory next to the workspace, outside it. */
  outside: string;
  /** The text of every HTTP answer of the agent server so far (to check what never leaks). */
  bodies: string[];
  /** The server itself (its conversation service, to evict idle conversations). */
  agentServer?: AgentServer;
}

/**
 * Starts an agent server and a scripted LLM for the current test; both (and the temporary directories) are
 * removed when the test ends, pass or fail.
 */
/** Options of the agent server a test starts (its data directory is the test's). */
export type ServerOptions = Omit<AgentServerOptions, 'dataDir'>;

export async function startStack(
  script: Script | ((server: E2EServer) => Script),
  options: ServerOptions = {},
): Promise<{ server: E2EServer; llm: LlmReplay }> {
  const server = await startServer(options);
  const llm = await startLlmReplay({ script: typeof script === 'function' ? script(server) : script });
  onTestFinished(() => llm.close());
  return { server, llm };
}

/** A stack whose agent server logs at `level` into `logs` (to assert what the log holds, and never holds). */
export async function startLoggedStack(
  script: Script,
  level: 'info' | 'trace',
): Promise<{ server: E2EServer; llm: LlmReplay; logs: string[] }> {
  const logs: string[] = [];
  const stack = await startStack(script, { logLevel: level, logStream: { write: (line: string) => logs.push(line) } });
  return { ...stack, logs };
}

export async function startServer(options: ServerOptions = {}): Promise<E2EServer> {
  const stack = await restartableServer(options);
  await stack.start();
  return stack.server;
}

/**
 * One data directory served by an agent server that can be stopped and started again (a process restart),
 * closed and removed after the test. `options` may depend on the test's temporary `root` (for example the
 * provider URL of bare repositories kept under it).
 */
export async function restartableServer(options: ServerOptions | ((root: string) => ServerOptions) = {}) {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'bosun-e2e-')));
  const settings = typeof options === 'function' ? options(root) : options;
  const server: E2EServer = {
    url: '',
    dataDir: join(root, 'data'),
    workspace: join(root, 'workspace'),
    outside: join(root, 'outside'),
    bodies: [],
  };
  const stop = async () => {
    // The server first (it stops the agents and their shells), then its files.
    await server.agentServer?.close();
    server.agentServer = undefined;
  };
  const start = async () => {
    server.agentServer = await buildAgentServer({ ...settings, dataDir: server.dataDir });
    server.url = await server.agentServer.app.listen({ host: '127.0.0.1', port: 0 });
  };
  onTestFinished(async () => {
    await stop();
    await rm(root, { recursive: true, force: true });
  });
  return {
    root,
    server,
    start,
    stop,
    async restart() {
      await stop();
      await start();
    },
  };
}

/** A request to the agent server over real HTTP. */
export async function api<T = unknown>(
  server: E2EServer,
  method: string,
  path: string,
  json?: unknown,
): Promise<Reply<T>> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: json === undefined ? {} : { 'content-type': 'application/json' },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  const text = await response.text();
  server.bodies.push(text);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, body: body as T, text };
}

export interface LlmOptions {
  model?: string;
  numRetries?: number;
  timeout?: number;
  logCompletions?: boolean;
}

/** An `agent.llm` pointing at llm-replay, with fast retries. Anthropic models get the server's root URL. */
export function llmConfig(llm: LlmReplay, options: LlmOptions = {}): Record<string, unknown> {
  const model = options.model ?? 'test-model';
  const anthropic = model.startsWith('anthropic/') || model.startsWith('claude');
  return {
    model,
    base_url: anthropic ? llm.url : llm.baseUrl,
    api_key: 'k',
    num_retries: options.numRetries ?? 2,
    retry_min_wait: 0.01,
    retry_max_wait: 0.05,
    timeout: options.timeout ?? 20,
    ...(options.logCompletions ? { log_completions: true } : {}),
  };
}

export const TOOLS = [{ name: 'terminal' }, { name: 'file_editor' }];

export interface StartOptions extends LlmOptions {
  /** The first user message; it starts a run. */
  message?: string;
  tools?: { name: string }[];
  extra?: Record<string, unknown>;
}

/** `POST /api/conversations` (201) with an agent on llm-replay in the server's workspace. */
export async function startConversation(
  server: E2EServer,
  llm: LlmReplay,
  options: StartOptions = {},
): Promise<ConversationInfo> {
  const reply = await api<ConversationInfo>(server, 'POST', '/api/conversations', {
    agent: { llm: llmConfig(llm, options), tools: options.tools ?? TOOLS },
    workspace: { working_dir: server.workspace },
    ...(options.message !== undefined
      ? { initial_message: { role: 'user', content: [{ type: 'text', text: options.message }] } }
      : {}),
    ...options.extra,
  });
  expect(reply.status, reply.text).toBe(201);
  return reply.body;
}

export async function conversation(server: E2EServer, id: string): Promise<ConversationInfo> {
  const reply = await api<ConversationInfo>(server, 'GET', `/api/conversations/${id}`);
  expect(reply.status, reply.text).toBe(200);
  return reply.body;
}

/** Polls the conversation until `accept` holds for its info; returns that info. */
export async function waitFor(
  server: E2EServer,
  id: string,
  accept: (info: ConversationInfo) => boolean,
  timeoutMs = 20_000,
): Promise<ConversationInfo> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const info = await conversation(server, id);
    if (accept(info)) return info;
    if (Date.now() > deadline) {
      const events = await allEvents(server, id);
      throw new Error(`conversation ${id} still ${info.execution_status}; events: ${JSON.stringify(outline(events))}`);
    }
    await sleep(25);
  }
}

/** Polls until the run has stopped with one of `statuses`; fails at once if it stopped with another one. */
export async function waitForStatus(
  server: E2EServer,
  id: string,
  statuses: string | string[],
  timeoutMs = 20_000,
): Promise<ConversationInfo> {
  const wanted = Array.isArray(statuses) ? statuses : [statuses];
  const info = await waitFor(
    server,
    id,
    (i) => wanted.includes(i.execution_status) || SETTLED.includes(i.execution_status),
    timeoutMs,
  );
  if (!wanted.includes(info.execution_status)) {
    const events = await allEvents(server, id);
    throw new Error(
      `conversation ${id} ended ${info.execution_status}, not ${wanted}: ${JSON.stringify(outline(events))}; ` +
        `last events: ${JSON.stringify(events.slice(-3))}`,
    );
  }
  return info;
}

/** Every event of a conversation, in log order, following `next_page_id` (small pages, to exercise paging). */
/** Waits until conversation `id` has finished; its events then, without the stats updates. */
export async function finishedEvents(server: E2EServer, id: string): Promise<EventBody[]> {
  await waitForStatus(server, id, 'finished');
  return withoutStats(await allEvents(server, id));
}

export async function allEvents(server: E2EServer, id: string, pageSize = 7): Promise<EventBody[]> {
  const events: EventBody[] = [];
  let pageId: string | null = null;
  do {
    const params = new URLSearchParams({ limit: String(pageSize) });
    if (pageId) params.set('page_id', pageId);
    const reply: Reply<{ items: EventBody[]; next_page_id: string | null }> = await api(
      server,
      'GET',
      `/api/conversations/${id}/events/search?${params}`,
    );
    expect(reply.status, reply.text).toBe(200);
    events.push(...reply.body.items);
    pageId = reply.body.next_page_id;
  } while (pageId);
  return events;
}

/** Polls the events until `accept` holds for them; returns them. */
export async function waitForEvents(
  server: E2EServer,
  id: string,
  accept: (events: EventBody[]) => boolean,
  timeoutMs = 20_000,
): Promise<EventBody[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const events = await allEvents(server, id, 100);
    if (accept(events)) return events;
    if (Date.now() > deadline) throw new Error(`events never matched: ${JSON.stringify(outline(events))}`);
    await sleep(50);
  }
}

/** The events without the usage bookkeeping (`stats` updates), for order checks. */
export function withoutStats(events: EventBody[]): EventBody[] {
  return events.filter((event) => !(event.kind === 'ConversationStateUpdateEvent' && event.key === 'stats'));
}

/** A compact label per event: `ActionEvent:terminal`, `ObservationEvent:TerminalObservation`, `status:finished`. */
export function outline(events: EventBody[]): string[] {
  return events.map((event) => {
    switch (event.kind) {
      case 'ActionEvent':
        return `ActionEvent:${event.tool_name}`;
      case 'ObservationEvent':
        return `ObservationEvent:${(event as ObservationEventBody).observation.kind}`;
      case 'MessageEvent':
        return `MessageEvent:${event.source}`;
      case 'ConversationStateUpdateEvent':
        return event.key === 'execution_status' ? `status:${event.value}` : `state:${event.key}`;
      default:
        return event.kind;
    }
  });
}

export function ofKind<T extends EventBody = EventBody>(events: EventBody[], kind: string): T[] {
  return events.filter((event) => event.kind === kind) as T[];
}

/** The API requests llm-replay received (control requests excluded), as recorded by its `GET /__requests`. */
export async function recordedRequests(llm: LlmReplay): Promise<RecordedRequest[]> {
  const response = await fetch(`${llm.url}/__requests`);
  expect(response.status).toBe(200);
  return (await response.json()) as RecordedRequest[];
}

/** The text of a content list (`[{type: 'text', text}]`). */
export function textOf(content: unknown): string {
  return (content as { type: string; text?: string }[])
    .filter((block) => block.type === 'text')
    .map((block) => block.text ?? '')
    .join('\n');
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
