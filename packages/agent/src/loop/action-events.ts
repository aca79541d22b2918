import type { NewEvent } from '@bosun/protocol';
import type { LLMResponse } from '../llm/types.ts';
import { agentError } from '../session/events.ts';
import type { Tool } from '../tools/tool.ts';
import { parseToolCall } from './tool-arguments.ts';

/** One ActionEvent per tool call (calls after `finish` are dropped); invalid calls also get an error. */
export function actionEvents(
  response: LLMResponse,
  toolsByName: ReadonlyMap<string, Tool>,
): { actions: NewEvent[]; errors: NewEvent[] } {
  const finishAt = response.toolCalls.findIndex((call) => call.name === 'finish');
  const calls = finishAt >= 0 ? response.toolCalls.slice(0, finishAt + 1) : response.toolCalls;
  const actions: NewEvent[] = [];
  const errors: NewEvent[] = [];
  calls.forEach((call, index) => {
    const tool = toolsByName.get(call.name);
    const parsed = tool
      ? parseToolCall(tool, call.arguments)
      : ({
          ok: false,
          error: `Tool '${call.name}' not found. Available: ${JSON.stringify([...toolsByName.keys()])}`,
        } as const);
    const first = index === 0;
    actions.push({
      kind: 'ActionEvent',
      source: 'agent',
      thought: first && response.content ? [{ type: 'text', text: response.content, cache_prompt: false }] : [],
      ...(first && response.reasoningContent ? { reasoning_content: response.reasoningContent } : {}),
      thinking_blocks: first ? (response.thinkingBlocks ?? []) : [],
      ...(first && response.responsesReasoningItem
        ? { responses_reasoning_item: response.responsesReasoningItem }
        : {}),
      action: parsed.ok ? parsed.action : null,
      tool_name: call.name,
      tool_call_id: call.id,
      tool_call: { id: call.id, name: call.name, arguments: call.arguments, origin: response.origin },
      llm_response_id: response.id,
      security_risk: 'UNKNOWN',
      summary: parsed.ok ? parsed.summary : null,
    });
    if (!parsed.ok) errors.push(agentError({ tool_name: call.name, tool_call_id: call.id }, parsed.error));
  });
  return { actions, errors };
}
