import type { LLMConfig } from '@bosun/protocol';
import type { LLMResponse, LLMUsage } from '../llm/types.ts';
import type { AgentSession } from './session.ts';

/** What one LLM call cost, from the per-token prices of its configuration (no price counts as free). */
export function responseCost(llm: Pick<LLMConfig, 'input_cost_per_token' | 'output_cost_per_token'>, usage: LLMUsage) {
  return (
    (llm.input_cost_per_token ?? 0) * usage.prompt_tokens + (llm.output_cost_per_token ?? 0) * usage.completion_tokens
  );
}

/** Records an LLM call's usage, cost and latency under its configuration's `usage_id`. */
export function recordResponseUsage(session: AgentSession, llm: LLMConfig, response: LLMResponse): Promise<void> {
  return session.recordUsage({
    usageId: llm.usage_id,
    model: llm.model,
    usage: response.usage,
    cost: responseCost(llm, response.usage),
    latencyMs: response.latencyMs,
    responseId: response.id,
  });
}
