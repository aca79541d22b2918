import { expect } from 'vitest';
import type { EventBody } from '../../packages/agent-server/test/support/http.ts';

/*
 * The events of the agent server's API as the end-to-end tests read them, and helpers over lists of them. An event
 * is the agent server tests' EventBody: the API returns the same thing to both.
 */
export type { EventBody };

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

/** Every status a run ends in (the run loop has stopped). */
export const SETTLED = ['finished', 'error', 'stuck', 'paused', 'idle', 'waiting_for_confirmation'];

/** How the outline of a run started by a user message opens: the system prompt, the message, the run starting. */
export const OPENING = ['SystemPromptEvent', 'MessageEvent:user', 'status:running'];

/** How the outline of a run that the agent ends with the finish tool closes. */
export const FINISHING = ['ActionEvent:finish', 'ObservationEvent:FinishObservation', 'status:finished'];

/** The events without the usage bookkeeping (`stats` updates) and retry notices (`llm_retry`), for order checks. */
export function withoutStats(events: EventBody[]): EventBody[] {
  return events.filter(
    (event) => !(event.kind === 'ConversationStateUpdateEvent' && (event.key === 'stats' || event.key === 'llm_retry')),
  );
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

export const actionsOf = (events: EventBody[]) => ofKind<ActionEventBody>(events, 'ActionEvent');

export const observationsOf = (events: EventBody[]) => ofKind<ObservationEventBody>(events, 'ObservationEvent');

/** What the UserRejectObservation holds when a hook rejected `action`, saying `reason`. */
export const hookRejection = (action: EventBody | undefined, reason: unknown) =>
  expect.objectContaining({ action_id: action?.id, rejection_source: 'hook', rejection_reason: reason });

/** The text of a content list (`[{type: 'text', text}]`). */
export function textOf(content: unknown): string {
  return (content as { type: string; text?: string }[])
    .filter((block) => block.type === 'text')
    .map((block) => block.text ?? '')
    .join('\n');
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
