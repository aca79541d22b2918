import type { Event, Message, Observation, TextContent } from '@bosun/protocol';
import { llmView } from './llm-view.ts';

const ERROR_PREFIX = '[An error occurred during execution.]\n';

/**
 * The messages the LLM sees, built from the log: the system prompt, messages, each LLM response's tool calls
 * as one assistant message, and one tool message per result (observation, rejection or error). A call that
 * never got a result (the server stopped mid-call) is answered with a note, so the history stays valid.
 * Condensations are applied first: forgotten events are left out and each summary is a user message. Messages
 * whose ids are in `hiddenMessageIds` (user messages a hook blocked) are left out too.
 */
export function buildMessages(
  events: readonly Event[],
  pendingToolCallIds: ReadonlySet<string> = new Set(),
  hiddenMessageIds: ReadonlySet<string> = new Set(),
): Message[] {
  const messages: Message[] = [];
  const answered = new Set<string>();
  let openResponse: { id: string; message: Message } | undefined;
  for (const event of llmView(events).events) {
    if (event.kind !== 'ActionEvent') openResponse = undefined;
    switch (event.kind) {
      case 'SystemPromptEvent': {
        const content: TextContent[] = [event.system_prompt];
        if (event.dynamic_context) content.push(event.dynamic_context);
        messages.push({ role: 'system', content, thinking_blocks: [] });
        break;
      }
      case 'MessageEvent':
        if (event.id !== undefined && hiddenMessageIds.has(event.id)) break;
        messages.push({
          ...event.llm_message,
          content: [...event.llm_message.content, ...event.extended_content],
        });
        break;
      case 'ActionEvent': {
        if (openResponse?.id === event.llm_response_id) {
          openResponse.message.tool_calls?.push(event.tool_call);
          break;
        }
        const message: Message = {
          role: 'assistant',
          content: event.thought,
          tool_calls: [event.tool_call],
          thinking_blocks: event.thinking_blocks,
          ...(event.reasoning_content ? { reasoning_content: event.reasoning_content } : {}),
          ...(event.responses_reasoning_item ? { responses_reasoning_item: event.responses_reasoning_item } : {}),
        };
        messages.push(message);
        openResponse = { id: event.llm_response_id, message };
        break;
      }
      case 'ObservationEvent':
        messages.push(toolMessage(event.tool_call_id, event.tool_name, observationText(event.observation)));
        answered.add(event.tool_call_id);
        break;
      case 'UserRejectObservation':
        messages.push(toolMessage(event.tool_call_id, event.tool_name, `Action rejected: ${event.rejection_reason}`));
        answered.add(event.tool_call_id);
        break;
      case 'AgentErrorEvent':
        messages.push(toolMessage(event.tool_call_id, event.tool_name, event.error));
        answered.add(event.tool_call_id);
        break;
      case 'CondensationSummaryEvent':
        messages.push({
          role: 'user',
          content: [{ type: 'text', text: event.summary, cache_prompt: false }],
          thinking_blocks: [],
        });
        break;
      default:
        break;
    }
  }
  return answerOrphans(messages, answered, pendingToolCallIds);
}

function toolMessage(toolCallId: string, name: string, text: string): Message {
  return {
    role: 'tool',
    tool_call_id: toolCallId,
    name,
    content: [{ type: 'text', text, cache_prompt: false }],
    thinking_blocks: [],
  };
}

/** What the LLM reads of an observation: its text, flagged when it is an error. */
export function observationText(observation: Observation): string {
  const text = observation.content
    .filter((block) => block.type === 'text')
    .map((block) => (block as TextContent).text)
    .join('\n');
  return observation.is_error ? `${ERROR_PREFIX}${text}` : text;
}

function answerOrphans(messages: Message[], answered: Set<string>, pending: ReadonlySet<string>): Message[] {
  const out: Message[] = [];
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i] as Message;
    out.push(message);
    if (message.role !== 'assistant' || !message.tool_calls?.length) continue;
    // Results follow their calls; collect them, then answer the calls that have none.
    let j = i + 1;
    while (j < messages.length && messages[j]?.role === 'tool') out.push(messages[j++] as Message);
    for (const call of message.tool_calls) {
      if (answered.has(call.id) || pending.has(call.id)) continue;
      out.push(toolMessage(call.id, call.name, 'The tool call was interrupted before it returned a result.'));
    }
    i = j - 1;
  }
  return out;
}
