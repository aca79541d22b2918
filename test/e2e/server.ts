import type { AgentServer } from '@bosun/agent-server';
import type { LlmReplay } from '@bosun/llm-replay';
import { expect } from 'vitest';
import { type Page, allPages } from '../../packages/agent-server/test/support/http.ts';
import { type EventBody, SETTLED, outline, sleep, withoutStats } from './events.ts';

/** What the HTTP API answered: status, body parsed as JSON when it is JSON, and the raw text. */
export interface Reply<T = unknown> {
  status: number;
  body: T;
  text: string;
}

export interface ConversationInfo {
  id: string;
  execution_status: string;
  [key: string]: unknown;
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
  /** More fields of the agent (agent_context, mcp_config, critic, …). */
  agent?: Record<string, unknown>;
  /** More fields of the request (confirmation_policy, secrets, plugins, …). */
  extra?: Record<string, unknown>;
}

/**
 * An agent server (its default runner: the real agent) on a loopback port, with its own directories, and the
 * requests a test makes of it over real HTTP.
 */
export class E2EServer {
  url = '';
  /** The text of every HTTP answer of the agent server so far (to check what never leaks). */
  readonly bodies: string[] = [];
  /** The server itself (its conversation service, to evict idle conversations). */
  agentServer?: AgentServer;

  constructor(
    readonly dataDir: string,
    /** A fresh workspace (its real path; created by the agent when a conversation starts). */
    readonly workspace: string,
    /** A directory next to the workspace, outside it. */
    readonly outside: string,
  ) {}

  /** A request to the agent server over real HTTP. */
  async api<T = unknown>(method: string, path: string, json?: unknown): Promise<Reply<T>> {
    const response = await fetch(`${this.url}${path}`, {
      method,
      headers: json === undefined ? {} : { 'content-type': 'application/json' },
      body: json === undefined ? undefined : JSON.stringify(json),
    });
    const text = await response.text();
    this.bodies.push(text);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    return { status: response.status, body: body as T, text };
  }

  /** `POST /api/conversations` (201) with an agent on llm-replay in the server's workspace. */
  async startConversation(llm: LlmReplay, options: StartOptions = {}): Promise<ConversationInfo> {
    const reply = await this.api<ConversationInfo>('POST', '/api/conversations', {
      agent: { llm: llmConfig(llm, options), tools: options.tools ?? TOOLS, ...options.agent },
      workspace: { working_dir: this.workspace },
      ...(options.message !== undefined
        ? { initial_message: { role: 'user', content: [{ type: 'text', text: options.message }] } }
        : {}),
      ...options.extra,
    });
    expect(reply.status, reply.text).toBe(201);
    return reply.body;
  }

  /** Sends the user message `text` to conversation `id` with `run: true` (200: it is stored and a run starts). */
  async sendMessage(id: string, text: string): Promise<Reply> {
    const reply = await this.api('POST', `/api/conversations/${id}/events`, {
      role: 'user',
      content: [{ type: 'text', text }],
      run: true,
    });
    expect(reply.status, reply.text).toBe(200);
    return reply;
  }

  async conversation(id: string): Promise<ConversationInfo> {
    const reply = await this.api<ConversationInfo>('GET', `/api/conversations/${id}`);
    expect(reply.status, reply.text).toBe(200);
    return reply.body;
  }

  /** Every event of a conversation, in log order, following `next_page_id` (small pages, to exercise paging). */
  allEvents(id: string, pageSize = 7): Promise<EventBody[]> {
    const search = `/api/conversations/${id}/events/search`;
    return allPages(
      (params) => this.api<Page<EventBody>>('GET', `${search}?${params}`),
      new URLSearchParams(),
      pageSize,
    );
  }

  /** Polls the conversation until `accept` holds for its info; returns that info. */
  async waitFor(id: string, accept: (info: ConversationInfo) => boolean, timeoutMs = 20_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const info = await this.conversation(id);
      if (accept(info)) return info;
      if (Date.now() > deadline) {
        const events = await this.allEvents(id);
        throw new Error(
          `conversation ${id} still ${info.execution_status}; events: ${JSON.stringify(outline(events))}`,
        );
      }
      await sleep(25);
    }
  }

  /** Polls until the run has stopped with one of `statuses`; fails at once if it stopped with another one. */
  async waitForStatus(id: string, statuses: string | string[], timeoutMs = 20_000): Promise<ConversationInfo> {
    const wanted = Array.isArray(statuses) ? statuses : [statuses];
    const settled = (i: ConversationInfo) =>
      wanted.includes(i.execution_status) || SETTLED.includes(i.execution_status);
    const info = await this.waitFor(id, settled, timeoutMs);
    if (!wanted.includes(info.execution_status)) {
      const events = await this.allEvents(id);
      throw new Error(
        `conversation ${id} ended ${info.execution_status}, not ${wanted}: ${JSON.stringify(outline(events))}; ` +
          `last events: ${JSON.stringify(events.slice(-3))}`,
      );
    }
    return info;
  }

  /** Waits until the run of conversation `id` has stopped with `status`; its events then, without the stats updates. */
  async settledEvents(id: string, status = 'finished'): Promise<EventBody[]> {
    await this.waitForStatus(id, status);
    return withoutStats(await this.allEvents(id));
  }

  /** Polls the events until `accept` holds for them; returns them. */
  async waitForEvents(id: string, accept: (events: EventBody[]) => boolean, timeoutMs = 20_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const events = await this.allEvents(id, 100);
      if (accept(events)) return events;
      if (Date.now() > deadline) throw new Error(`events never matched: ${JSON.stringify(outline(events))}`);
      await sleep(50);
    }
  }
}
