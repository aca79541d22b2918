import type { LLMConfig, NewEvent, Observation, StoredEvent, TextContent } from '@bosun/protocol';
import { completionLogEvent } from '../llm/completion-log.ts';
import type { LLMResponse } from '../llm/types.ts';

type StoredAction = StoredEvent<'ActionEvent'>;

const text = (value: string): TextContent => ({ type: 'text', text: value, cache_prompt: false });

/** The agent's plain-text answer (an LLM response without tool calls). */
export function agentMessage(response: LLMResponse): NewEvent {
  return {
    kind: 'MessageEvent',
    source: 'agent',
    llm_message: {
      role: 'assistant',
      content: [text(response.content ?? '')],
      thinking_blocks: response.thinkingBlocks ?? [],
      ...(response.reasoningContent ? { reasoning_content: response.reasoningContent } : {}),
      ...(response.responsesReasoningItem ? { responses_reasoning_item: response.responsesReasoningItem } : {}),
    },
    llm_response_id: response.id,
    activated_skills: [],
    extended_content: [],
  };
}

/** A user-role message from the environment (the nudge after an empty response). */
export function environmentMessage(value: string): NewEvent {
  return {
    kind: 'MessageEvent',
    source: 'environment',
    llm_message: { role: 'user', content: [text(value)], thinking_blocks: [] },
    activated_skills: [],
    extended_content: [],
  };
}

/** The result of an action that ran. */
export function observationEvent(action: StoredAction, observation: Observation): NewEvent {
  return {
    kind: 'ObservationEvent',
    source: 'environment',
    tool_name: action.tool_name,
    tool_call_id: action.tool_call_id,
    observation,
    action_id: action.id,
  };
}

/** The result of an action that was not run: rejected by the user (confirmation) or blocked by a PreToolUse hook. */
export function rejection(action: StoredAction, reason: string, by: 'user' | 'hook'): NewEvent {
  return {
    kind: 'UserRejectObservation',
    source: 'environment',
    tool_name: action.tool_name,
    tool_call_id: action.tool_call_id,
    action_id: action.id,
    rejection_reason: reason,
    rejection_source: by,
  };
}

/** The result of a tool call that could not run or failed. */
export function agentError(call: { tool_name: string; tool_call_id: string }, error: string): NewEvent {
  return {
    kind: 'AgentErrorEvent',
    source: 'agent',
    tool_name: call.tool_name,
    tool_call_id: call.tool_call_id,
    error,
  };
}

/** Why a run ended in `error` or `stuck`. */
export function conversationError(code: string, detail: string): NewEvent {
  return { kind: 'ConversationErrorEvent', source: 'environment', code, detail };
}

/** What is logged of an agent's LLM call besides its answer: the completion (`log_completions`) and token ids. */
export function telemetryEvents(llm: LLMConfig, response: LLMResponse): NewEvent[] {
  const events: NewEvent[] = [];
  if (llm.log_completions) events.push(completionLogEvent(response, llm.usage_id, llm.model));
  if (response.tokenIds) {
    events.push({
      kind: 'TokenEvent',
      source: 'environment',
      prompt_token_ids: response.tokenIds.prompt,
      response_token_ids: response.tokenIds.response,
    });
  }
  return events;
}
