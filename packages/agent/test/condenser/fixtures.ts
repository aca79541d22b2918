import type { AgentSession, LLMProvider, LLMRequest, LLMResponse, UsageRecord } from '@bosun/agent';
import {
  AgentSpec,
  type ConversationExecutionStatus,
  type Event,
  type NewEvent,
  type StoredEvent,
  parse,
  parseEvent,
} from '@bosun/protocol';
import { llmResponse } from '../support/scripted-provider.ts';

/** Events for view tests: ids are readable (`u1`, `a2`, ...) and every event is valid for the protocol. */
let counter = 0;
const nextId = (prefix: string) => `${prefix}${++counter}`;

export function system(id = 'sys'): Event {
  return parseEvent({
    kind: 'SystemPromptEvent',
    id,
    system_prompt: { type: 'text', text: 'You are an agent.' },
    tools: [],
  });
}

/** A text message from `source`; the agent's ones name the LLM response they came in. */
function message(source: 'user' | 'agent', text: string, id: string, extra: Record<string, unknown> = {}): Event {
  const role = source === 'user' ? 'user' : 'assistant';
  return parseEvent({
    kind: 'MessageEvent',
    id,
    source,
    llm_message: { role, content: [{ type: 'text', text }] },
    ...extra,
  });
}

export const user = (text: string, id = nextId('u')): Event => message('user', text, id);

export const assistant = (text: string, id = nextId('m')): Event =>
  message('agent', text, id, { llm_response_id: `resp-${id}` });

/** One ActionEvent per call, all of LLM response `responseId` (the ids are `<callId>-action`). */
export function actions(responseId: string, ...callIds: string[]): Event[] {
  return callIds.map((callId) =>
    parseEvent({
      kind: 'ActionEvent',
      id: `${callId}-action`,
      thought: [],
      action: { kind: 'ThinkAction', thought: callId },
      tool_name: 'think',
      tool_call_id: callId,
      tool_call: { id: callId, name: 'think', arguments: JSON.stringify({ thought: callId }), origin: 'completion' },
      llm_response_id: responseId,
    }),
  );
}

/** What answers the think call `callId`: an event of `kind`, with the id `<callId>-<suffix>`. */
function answer(kind: string, callId: string, suffix: string, fields: Record<string, unknown>): Event {
  return parseEvent({ kind, id: `${callId}-${suffix}`, tool_name: 'think', tool_call_id: callId, ...fields });
}

export const observation = (callId: string, text = `result of ${callId}`): Event =>
  answer('ObservationEvent', callId, 'obs', {
    action_id: `${callId}-action`,
    observation: { kind: 'ThinkObservation', content: [{ type: 'text', text }] },
  });

export const rejection = (callId: string): Event =>
  answer('UserRejectObservation', callId, 'rejected', { action_id: `${callId}-action`, rejection_reason: 'not now' });

export const agentError = (callId: string): Event =>
  answer('AgentErrorEvent', callId, 'error', { error: `error of ${callId}` });

/** A call and its result: `[action, observation]`. */
export function call(callId: string): Event[] {
  return [...actions(`resp-${callId}`, callId), observation(callId)];
}

export function stats(): Event {
  return parseEvent({ kind: 'ConversationStateUpdateEvent', id: nextId('st'), key: 'stats', value: {} });
}

export function request(): Event {
  return parseEvent({ kind: 'CondensationRequest', id: nextId('req') });
}

export function condensation(
  id: string,
  forgotten: string[],
  summary?: string,
  offset?: number,
  responseId = `resp-${id}`,
): Event {
  return parseEvent({
    kind: 'Condensation',
    id,
    forgotten_event_ids: forgotten,
    ...(summary !== undefined ? { summary } : {}),
    ...(offset !== undefined ? { summary_offset: offset } : {}),
    llm_response_id: responseId,
  });
}

export const ids = (events: readonly Event[]) => events.map((event) => event.id);

/** An agent whose condenser is `condenser`. */
export function agentWith(condenser: Record<string, unknown> | null): AgentSpec {
  return parse(AgentSpec, { llm: { model: 'test-model', usage_id: 'default' }, condenser });
}

/** `event` as the log stores it: with an id and a timestamp. */
function stored(event: NewEvent): StoredEvent {
  return { ...event, id: event.id ?? nextId('e'), timestamp: event.timestamp ?? '2026-01-01T00:00:00Z' } as StoredEvent;
}

/** An in-memory session: a log, a status and the usage it was told about. */
export class MemorySession implements AgentSession {
  readonly id = 'conversation';
  readonly maxIterations = 100;
  readonly log: StoredEvent[];
  readonly usage: { usageId: string; responseId: string }[] = [];
  current: ConversationExecutionStatus = 'running';

  constructor(
    readonly agent: AgentSpec,
    events: Event[] = [],
  ) {
    this.log = events.map(stored);
  }

  async history(): Promise<readonly StoredEvent[]> {
    return [...this.log];
  }

  async append(events: NewEvent[]): Promise<StoredEvent[]> {
    const appended = events.map(stored);
    this.log.push(...appended);
    return appended;
  }

  status(): ConversationExecutionStatus {
    return this.current;
  }

  async setStatus(status: ConversationExecutionStatus, extra: NewEvent[] = []): Promise<void> {
    await this.append(extra);
    this.current = status;
  }

  async recordUsage({ usageId, responseId }: UsageRecord) {
    this.usage.push({ usageId, responseId });
  }
}

/** A provider answering each request with the next of `answers` (a text, or an error to throw). */
export class ScriptedProvider implements LLMProvider {
  readonly requests: LLMRequest[] = [];
  constructor(
    private readonly answers: (string | Error)[],
    readonly config = agentWith(null).llm,
  ) {}

  async complete(request: LLMRequest): Promise<LLMResponse> {
    this.requests.push(request);
    const answer = this.answers.shift();
    if (answer === undefined) throw new Error('no scripted answer left');
    if (answer instanceof Error) throw answer;
    return llmResponse(`resp-${this.requests.length}`, { content: answer });
  }
}
