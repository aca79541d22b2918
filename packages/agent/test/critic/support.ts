import { AgentSpec, type NewEvent, parse } from '@bosun/protocol';

export type ActionDraft = Extract<NewEvent, { kind: 'ActionEvent' }>;
export type MessageDraft = Extract<NewEvent, { kind: 'MessageEvent' }>;

/** An agent (LLM `test-model`, usage id `default`) whose critic is `critic`. */
export function criticAgent(critic: Record<string, unknown> | null | undefined): AgentSpec {
  return parse(AgentSpec, {
    llm: { model: 'test-model', usage_id: 'default' },
    ...(critic !== undefined ? { critic } : {}),
  });
}

/** An ActionEvent as the run loop builds it, before it is stored. */
export function actionDraft(
  callId: string,
  name: string,
  args: Record<string, unknown> | string,
  extra: Partial<ActionDraft> = {},
): ActionDraft {
  const argumentsText = typeof args === 'string' ? args : JSON.stringify(args);
  return {
    kind: 'ActionEvent',
    source: 'agent',
    thought: [],
    thinking_blocks: [],
    action: { kind: 'ThinkAction', thought: callId },
    tool_name: name,
    tool_call_id: callId,
    tool_call: { id: callId, name, arguments: argumentsText, origin: 'completion' },
    llm_response_id: 'resp-agent',
    security_risk: 'UNKNOWN',
    summary: null,
    ...extra,
  } as ActionDraft;
}

/** An agent MessageEvent as the run loop builds it, before it is stored. */
export function messageDraft(text: string): MessageDraft {
  return {
    kind: 'MessageEvent',
    source: 'agent',
    llm_message: { role: 'assistant', content: [{ type: 'text', text, cache_prompt: false }], thinking_blocks: [] },
    llm_response_id: 'resp-answer',
    activated_skills: [],
    extended_content: [],
  };
}
