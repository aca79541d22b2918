import type { Event } from '@bosun/protocol';
import { contentText, elide } from '../llm/message-text.ts';
import { observationText } from '../session/messages.ts';

/** The first words of every summary request: how the condenser's LLM calls are told apart from the agent's. */
export const SUMMARY_PROMPT_START = 'Summarize the following events';

/** At most this many characters of one event go into a summary request (the middle is elided). */
const MAX_EVENT_CHARS = 4000;
/** At most this many characters of events in all (about 100k tokens); each event gets an equal share beyond it. */
const MAX_EVENTS_CHARS = 400_000;

const INSTRUCTIONS = `${SUMMARY_PROMPT_START} of a conversation between a user and an AI agent that uses tools. The summary replaces these events in the agent's memory, so keep everything the agent needs to continue its work:
USER_CONTEXT: what the user asked for, with requirements, constraints and preferences
COMPLETED: what has been done, with results
PENDING: what remains to be done
CURRENT_STATE: files, commands, variables, errors and other state that matters now
Keep file paths, function names, commands, error messages and exact values. A previous summary, if given, covers what happened before these events: fold it in. Answer with the summary only.`;

/** The text of a summary request for `forgotten` (a previous summary among them is given as such). */
export function summaryPrompt(forgotten: readonly Event[]): string {
  const previous = forgotten.filter((event) => event.kind === 'CondensationSummaryEvent');
  const events = forgotten.filter((event) => event.kind !== 'CondensationSummaryEvent');
  const limit = Math.max(200, Math.min(MAX_EVENT_CHARS, Math.floor(MAX_EVENTS_CHARS / Math.max(1, events.length))));
  const parts = [INSTRUCTIONS];
  for (const summary of previous) parts.push(`<PREVIOUS SUMMARY>\n${summary.summary}\n</PREVIOUS SUMMARY>`);
  for (const event of events) {
    parts.push(`<EVENT id=${event.id} kind=${event.kind}>\n${elide(eventText(event), limit)}\n</EVENT>`);
  }
  return parts.join('\n\n');
}

/** An event as the summarizer reads it. */
export function eventText(event: Event): string {
  switch (event.kind) {
    case 'SystemPromptEvent':
      return `system prompt: ${event.system_prompt.text}`;
    case 'MessageEvent':
      return `${event.llm_message.role}: ${contentText([...event.llm_message.content, ...event.extended_content])}`;
    case 'ActionEvent': {
      const thought = contentText(event.thought);
      const call = `${event.tool_name}(${event.tool_call.arguments})`;
      return thought ? `assistant: ${thought}\nassistant called ${call}` : `assistant called ${call}`;
    }
    case 'ObservationEvent':
      return `result of ${event.tool_name}: ${observationText(event.observation)}`;
    case 'UserRejectObservation':
      return `the user rejected the call of ${event.tool_name}: ${event.rejection_reason}`;
    case 'AgentErrorEvent':
      return `error of ${event.tool_name}: ${event.error}`;
    case 'CondensationSummaryEvent':
      return `summary of earlier events: ${event.summary}`;
    default:
      return JSON.stringify(event);
  }
}

/** A rough token count of events: 4 characters per token of their text. */
export function estimateTokens(events: readonly Event[]): number {
  return events.reduce((total, event) => total + Math.ceil(eventText(event).length / 4), 0);
}
