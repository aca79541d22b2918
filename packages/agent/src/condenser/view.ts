import type { Event } from '@bosun/protocol';
import { type RetainedSkills, renderRetained, skillContentOf } from '../skills/retained.ts';

/** The events an LLM can read; everything else (state updates, pauses, errors, telemetry) is never in the view. */
const LLM_KINDS: ReadonlySet<Event['kind']> = new Set([
  'SystemPromptEvent',
  'MessageEvent',
  'ActionEvent',
  'ObservationEvent',
  'UserRejectObservation',
  'AgentErrorEvent',
  'CondensationSummaryEvent',
]);

export type SummaryEvent = Extract<Event, { kind: 'CondensationSummaryEvent' }>;

/** What the LLM sees of a conversation: its events once every condensation is applied. */
export interface LLMView {
  events: Event[];
  /** A `CondensationRequest` came after the last `Condensation`: the next step must condense. */
  unhandledRequest: boolean;
}

/**
 * Replays the log into the LLM's view. A `Condensation` removes its forgotten events from the view built so far
 * and, when it has a summary and an offset, inserts a `CondensationSummaryEvent` (id `<condensation id>-summary`)
 * at that offset; a later condensation can forget that summary like any other event. The log itself is never
 * changed: this is only what the LLM is given.
 *
 * Skill content survives condensation: what forgotten events carried (`invoke_skill` results, skills a user
 * message triggered) is appended to the summary, and carried on when a later condensation forgets that summary.
 */
export function llmView(history: readonly Event[]): LLMView {
  let events: Event[] = [];
  let unhandledRequest = false;
  const carriedBySummary = new WeakMap<Event, RetainedSkills>();
  for (const event of history) {
    if (event.kind === 'Condensation') {
      const forgotten = new Set(event.forgotten_event_ids);
      const retained: RetainedSkills = new Map();
      for (const gone of events) {
        if (!forgotten.has(gone.id as string)) continue;
        for (const [key, text] of carriedBySummary.get(gone) ?? skillContentOf(gone)) retained.set(key, text);
      }
      if (forgotten.size) events = events.filter((kept) => !forgotten.has(kept.id as string));
      const hasSummary = event.summary != null && event.summary_offset != null;
      if (hasSummary || retained.size) {
        const summary = summaryEvent(event, retained);
        carriedBySummary.set(summary, retained);
        const offset = event.summary_offset ?? (events[0]?.kind === 'SystemPromptEvent' ? 1 : 0);
        events.splice(Math.min(offset, events.length), 0, summary);
      }
      unhandledRequest = false;
    } else if (event.kind === 'CondensationRequest') {
      unhandledRequest = true;
    } else if (LLM_KINDS.has(event.kind)) {
      events.push(event);
    }
  }
  return { events, unhandledRequest };
}

function summaryEvent(condensation: Extract<Event, { kind: 'Condensation' }>, retained: RetainedSkills): SummaryEvent {
  const parts = [
    condensation.summary_offset != null ? condensation.summary : null,
    retained.size ? renderRetained(retained) : null,
  ];
  return {
    kind: 'CondensationSummaryEvent',
    id: `${condensation.id}-summary`,
    ...(condensation.timestamp ? { timestamp: condensation.timestamp } : {}),
    source: 'environment',
    summary: parts.filter((part) => part != null).join('\n\n'),
  };
}

/**
 * Where the view may be cut: `cuts[i]` says whether view[0..i) and view[i..) can be separated. An LLM response's
 * tool calls and their results (observations, rejections, errors), with anything logged between them, are one
 * unit; a response with a call still waiting for its result extends to the end of the view.
 */
export function cutPoints(view: readonly Event[]): boolean[] {
  const n = view.length;
  const ranges = new Map<string, { start: number; end: number; open: Set<string> }>();
  const responseOfAction = new Map<string, string>();
  const responseOfCall = new Map<string, string>();
  const close = (responseId: string | undefined, callId: string, index: number) => {
    const range = responseId === undefined ? undefined : ranges.get(responseId);
    if (!range) return;
    range.end = Math.max(range.end, index);
    range.open.delete(callId);
  };
  view.forEach((event, index) => {
    switch (event.kind) {
      case 'ActionEvent': {
        const range = ranges.get(event.llm_response_id) ?? { start: index, end: index, open: new Set<string>() };
        range.end = index;
        range.open.add(event.tool_call_id);
        ranges.set(event.llm_response_id, range);
        responseOfAction.set(event.id as string, event.llm_response_id);
        responseOfCall.set(event.tool_call_id, event.llm_response_id);
        break;
      }
      case 'ObservationEvent':
      case 'UserRejectObservation':
        close(
          responseOfAction.get(event.action_id) ?? responseOfCall.get(event.tool_call_id),
          event.tool_call_id,
          index,
        );
        break;
      case 'AgentErrorEvent':
        close(responseOfCall.get(event.tool_call_id), event.tool_call_id, index);
        break;
      default:
        break;
    }
  });
  const cuts = new Array<boolean>(n + 1).fill(true);
  for (const range of ranges.values()) {
    const end = range.open.size ? n - 1 : range.end;
    for (let i = range.start + 1; i <= end; i++) cuts[i] = false;
  }
  return cuts;
}

/** Which events a condensation forgets, and where its summary goes. */
export interface ForgettingPlan {
  forgotten: Event[];
  summaryOffset: number;
}

/**
 * Forgets the middle of the view: the head (the first `keepFirst` events, and always the system prompt) and the
 * last `keepLast` events stay. Both boundaries move to the nearest cut point that keeps a tool call with its
 * result: the head grows to the end of a unit it would split, the tail grows to the start of one (or, when that
 * leaves nothing to forget, shrinks past it). Undefined when nothing can be forgotten.
 */
export function planForgetting(
  view: readonly Event[],
  { keepFirst, keepLast }: { keepFirst: number; keepLast: number },
): ForgettingPlan | undefined {
  const n = view.length;
  const cuts = cutPoints(view);
  let head = Math.min(Math.max(0, keepFirst), n);
  if (view[0]?.kind === 'SystemPromptEvent') head = Math.max(head, 1);
  while (head < n && !cuts[head]) head++;
  const desired = Math.max(head, n - Math.max(0, keepLast));
  let tail = desired;
  while (tail > head && !cuts[tail]) tail--;
  if (tail <= head) {
    tail = desired;
    while (tail < n && !cuts[tail]) tail++;
  }
  if (tail <= head) return undefined;
  return { forgotten: view.slice(head, tail), summaryOffset: head };
}
