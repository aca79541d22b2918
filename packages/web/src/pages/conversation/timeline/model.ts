import type { EventOf, StoredEvent } from '@bosun/protocol';

export type ActionEvent = StoredEvent<'ActionEvent'>;
export type ObservationEvent = StoredEvent<'ObservationEvent'>;
export type RejectEvent = StoredEvent<'UserRejectObservation'>;
export type AgentErrorEvent = StoredEvent<'AgentErrorEvent'>;
export type MessageEvent = StoredEvent<'MessageEvent'>;

/** What answered an action: its observation, its rejection, or the agent's error about it. */
export type ActionResult = ObservationEvent | RejectEvent | AgentErrorEvent;

/** One row of the timeline. */
export type TimelineItem =
  | { type: 'message'; key: string; event: MessageEvent }
  | { type: 'action'; key: string; event: ActionEvent; result: ActionResult | undefined }
  /** A result whose action is not in the timeline (a fork, a condensed history). */
  | { type: 'orphan'; key: string; event: ActionResult }
  | { type: 'conversation-error'; key: string; event: StoredEvent<'ConversationErrorEvent'> }
  | {
      type: 'condensation';
      key: string;
      event: StoredEvent<'Condensation'> | StoredEvent<'CondensationSummaryEvent'> | StoredEvent<'CondensationRequest'>;
    }
  | { type: 'pause'; key: string; event: StoredEvent<'PauseEvent'> }
  | { type: 'system'; key: string; event: StoredEvent<'SystemPromptEvent'> };

/** The value of an `llm_retry` state update: an LLM call failed and is tried again. */
export interface LlmRetry {
  attempt: number;
  max_attempts: number;
  delay_s: number | null;
  error: string;
  error_type?: string;
  at?: string;
  next_attempt_at?: string;
}

/** What the events say, besides the rows: the latest values of state updates. */
export interface TimelineModel {
  items: TimelineItem[];
  /** Actions without a result yet, in order (those waiting for confirmation when the agent waits). */
  unanswered: ActionEvent[];
  /** The last `execution_status` a state update (or a `full_state`) gave. */
  executionStatus: string | undefined;
  /** The LLM retry under way, or null. */
  retry: LlmRetry | null;
  /** How many user messages, by text (to match messages sent but not yet seen). */
  userTexts: Map<string, number>;
}

export const textOf = (content: readonly { type?: string; text?: string }[] | undefined): string =>
  (content ?? [])
    .filter((part) => part.type === 'text' || part.type === undefined)
    .map((part) => part.text ?? '')
    .join('\n');

const isResult = (event: StoredEvent): event is ActionResult =>
  event.kind === 'ObservationEvent' || event.kind === 'UserRejectObservation' || event.kind === 'AgentErrorEvent';

/**
 * The timeline of a conversation's events (in log order): messages, each action with what answered it (by
 * `action_id`, else `tool_call_id`), errors, markers; state updates, logs and token ids are not rows. Linear in the
 * number of events.
 */
export function buildTimeline(events: readonly StoredEvent[]): TimelineModel {
  const resultsByAction = new Map<string, ActionResult>();
  const resultsByCall = new Map<string, ActionResult>();
  const actionIds = new Set<string>();
  const callIds = new Set<string>();
  let executionStatus: string | undefined;
  let retry: LlmRetry | null = null;
  for (const event of events) {
    if (isResult(event)) {
      if ('action_id' in event && event.action_id) resultsByAction.set(event.action_id, event);
      if (event.tool_call_id) resultsByCall.set(event.tool_call_id, event);
    } else if (event.kind === 'ActionEvent') {
      actionIds.add(event.id);
      callIds.add(event.tool_call_id);
    } else if (event.kind === 'ConversationStateUpdateEvent') {
      if (event.key === 'execution_status' && typeof event.value === 'string') executionStatus = event.value;
      else if (event.key === 'full_state') {
        const status = (event.value as { execution_status?: unknown } | undefined)?.execution_status;
        if (typeof status === 'string') executionStatus = status;
      } else if (event.key === 'llm_retry') retry = (event.value as LlmRetry | null) ?? null;
    }
  }
  const items: TimelineItem[] = [];
  const unanswered: ActionEvent[] = [];
  const userTexts = new Map<string, number>();
  for (const event of events) {
    const key = event.id;
    switch (event.kind) {
      case 'MessageEvent':
        items.push({ type: 'message', key, event });
        if (event.source === 'user') {
          const text = textOf(event.llm_message.content).trim();
          userTexts.set(text, (userTexts.get(text) ?? 0) + 1);
        }
        break;
      case 'ActionEvent': {
        const result = resultsByAction.get(event.id) ?? resultsByCall.get(event.tool_call_id);
        if (!result) unanswered.push(event);
        items.push({ type: 'action', key, event, result });
        break;
      }
      case 'ObservationEvent':
      case 'UserRejectObservation':
      case 'AgentErrorEvent': {
        const answered = ('action_id' in event && actionIds.has(event.action_id)) || callIds.has(event.tool_call_id);
        if (!answered) items.push({ type: 'orphan', key, event });
        break;
      }
      case 'ConversationErrorEvent':
        items.push({ type: 'conversation-error', key, event });
        break;
      case 'Condensation':
      case 'CondensationSummaryEvent':
        items.push({ type: 'condensation', key, event });
        break;
      case 'PauseEvent':
        items.push({ type: 'pause', key, event });
        break;
      case 'SystemPromptEvent':
        items.push({ type: 'system', key, event });
        break;
      default:
        // State updates (the header shows the status), completion logs, token ids, condensation requests.
        break;
    }
  }
  return { items, unanswered, executionStatus, retry, userTexts };
}

export type { EventOf };
