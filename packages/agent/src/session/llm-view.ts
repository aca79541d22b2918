import type { Event, EventOf } from '@bosun/protocol';
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

export type SummaryEvent = EventOf<'CondensationSummaryEvent'>;

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
        if (gone.id === undefined || !forgotten.has(gone.id)) continue;
        for (const [key, text] of carriedBySummary.get(gone) ?? skillContentOf(gone)) retained.set(key, text);
      }
      if (forgotten.size) events = events.filter((kept) => kept.id === undefined || !forgotten.has(kept.id));
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

function summaryEvent(condensation: EventOf<'Condensation'>, retained: RetainedSkills): SummaryEvent {
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
