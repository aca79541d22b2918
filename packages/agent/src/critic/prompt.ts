import type { Event, NewEvent } from '@bosun/protocol';
import { eventText } from '../condenser/prompt.ts';
import { contentText, elide } from '../llm/message-text.ts';
import { llmView } from '../session/llm-view.ts';

/** The first words of every critic request: how the critic's LLM calls are told apart from the agent's. */
export const CRITIC_PROMPT_START = 'You are the critic of an AI agent';

/** How many of the last events of the LLM's view the critic reads as context. */
export const CONTEXT_EVENTS = 20;
/** At most this many characters of one context event (the middle is elided). */
const MAX_EVENT_CHARS = 2000;
/** At most this many characters of what is judged (the arguments of a call, an answer). */
const MAX_SUBJECT_CHARS = 8000;

export type ActionDraft = Extract<NewEvent, { kind: 'ActionEvent' }>;
export type MessageDraft = Extract<NewEvent, { kind: 'MessageEvent' }>;

/** What one critique judges: the tool calls of one LLM response, or one text answer of the agent. */
export type CriticSubject = { kind: 'actions'; actions: ActionDraft[] } | { kind: 'message'; message: MessageDraft };

const INTRO = `${CRITIC_PROMPT_START} that works on a user's task with tools. Judge the agent's latest step, shown last after the task and the recent conversation: is it correct, useful and safe progress towards what the user asked? For tool calls: are the tools and their arguments right at this point? For a final answer: is the task really done, and does the answer report truthfully what was done?`;

const ANSWER_FORMAT =
  'Answer with one JSON object and nothing else, no code fence: {"score": <number from 0 to 1>, "message": "<one or two sentences saying why>"}. A score of 1 means the step is certainly right, 0 that it is certainly wrong or harmful.';

/** The text of a critic request: the task, the recent conversation, the step judged, then how to answer. */
export function criticPrompt(subject: CriticSubject, history: readonly Event[], instructions: string | null): string {
  const view = llmView(history).events.filter((event) => event.kind !== 'SystemPromptEvent');
  const task = view.find((event) => event.kind === 'MessageEvent' && event.source === 'user');
  const recent = view.slice(-CONTEXT_EVENTS);
  const parts = [INTRO];
  if (task) parts.push(`<TASK>\n${elide(eventText(task), MAX_SUBJECT_CHARS)}\n</TASK>`);
  if (recent.length) {
    const events = recent.map(
      (event) => `<EVENT kind=${event.kind}>\n${elide(eventText(event), MAX_EVENT_CHARS)}\n</EVENT>`,
    );
    const skipped = view.length - recent.length;
    const note = skipped > 0 ? `(${skipped} earlier events not shown)\n` : '';
    parts.push(`<RECENT CONVERSATION>\n${note}${events.join('\n')}\n</RECENT CONVERSATION>`);
  }
  parts.push(subjectText(subject));
  if (instructions) parts.push(`<INSTRUCTIONS>\n${instructions}\n</INSTRUCTIONS>`);
  parts.push(ANSWER_FORMAT);
  return parts.join('\n\n');
}

/** The step judged, as the critic reads it. */
export function subjectText(subject: CriticSubject): string {
  if (subject.kind === 'message') {
    const text = contentText(subject.message.llm_message.content);
    return `<AGENT FINAL ANSWER>\n${elide(text, MAX_SUBJECT_CHARS)}\n</AGENT FINAL ANSWER>`;
  }
  const { actions } = subject;
  const thought = contentText(actions[0]?.thought ?? []);
  const lines = actions.map((action, index) => {
    const notes = [
      action.action == null ? 'invalid call: it will not run' : undefined,
      action.security_risk && action.security_risk !== 'UNKNOWN' ? `security risk ${action.security_risk}` : undefined,
    ].filter(Boolean);
    const call = `${action.tool_name}(${elide(action.tool_call.arguments, MAX_SUBJECT_CHARS)})`;
    return `${index + 1}. ${call}${notes.length ? ` [${notes.join('; ')}]` : ''}`;
  });
  const header =
    actions.length > 1
      ? `The agent's latest step: ${actions.length} tool calls of one response, run in this order:`
      : "The agent's latest step: a tool call:";
  const body = [thought ? `Thought: ${elide(thought, MAX_SUBJECT_CHARS)}` : undefined, header, ...lines];
  return `<AGENT ACTION>\n${body.filter(Boolean).join('\n')}\n</AGENT ACTION>`;
}
