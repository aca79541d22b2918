import type { MetricsSnapshot } from '@bosun/protocol';
import type { ConversationRecord } from './record.ts';

/** One usage id of `stats.usage_to_metrics`, as the run loop records it. */
interface RecordedUsage {
  accumulated_cost?: number;
  accumulated_token_usage?: Partial<Record<TokenField, number>> & { response_id?: string };
}

const TOKEN_FIELDS = [
  'prompt_tokens',
  'completion_tokens',
  'cache_read_tokens',
  'cache_write_tokens',
  'reasoning_tokens',
] as const;
type TokenField = (typeof TOKEN_FIELDS)[number];

/**
 * The conversation's `metrics`: the usage of every LLM call (agent, condenser, critic) added up, named after the
 * agent's model. The agent's own usage id gives the last response id.
 */
export function metricsSnapshot(record: ConversationRecord): MetricsSnapshot {
  const model = record.request.agent.llm.model;
  const usages = record.stats.usage_to_metrics as Record<string, RecordedUsage>;
  const totals = Object.fromEntries(TOKEN_FIELDS.map((field) => [field, 0])) as Record<TokenField, number>;
  let cost = 0;
  for (const usage of Object.values(usages)) {
    cost += usage.accumulated_cost ?? 0;
    for (const field of TOKEN_FIELDS) totals[field] += usage.accumulated_token_usage?.[field] ?? 0;
  }
  const agentUsageId = record.request.agent.llm.usage_id;
  return {
    model_name: model,
    accumulated_cost: cost,
    max_budget_per_task: null,
    accumulated_token_usage: {
      model,
      ...totals,
      context_window: record.request.agent.llm.max_input_tokens ?? 0,
      per_turn_token: 0,
      response_id: usages[agentUsageId]?.accumulated_token_usage?.response_id ?? '',
    },
  };
}
