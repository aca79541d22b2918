import { type Static, Type } from '@sinclair/typebox';
import { nullable, ref, strictObject } from '../schema/builders.ts';

/** What a conversation's LLM calls used and cost, in OpenHands' `MetricsSnapshot` shape. */

const tokens = (description: string) => Type.Integer({ minimum: 0, description });

export const TokenUsage = strictObject('TokenUsage', 'Token usage added up over LLM calls.', {
  model: Type.String(),
  prompt_tokens: tokens('Prompt (input) tokens.'),
  completion_tokens: tokens('Completion (output) tokens.'),
  cache_read_tokens: tokens('Prompt tokens read from the provider cache.'),
  cache_write_tokens: tokens('Prompt tokens written to the provider cache.'),
  reasoning_tokens: tokens('Reasoning tokens (part of the completion tokens).'),
  context_window: tokens('The context window of the model; 0: unknown.'),
  per_turn_token: tokens('Always 0: Bosun does not track the tokens of single calls.'),
  response_id: Type.String({ description: 'Id of the last response counted.' }),
});
export type TokenUsage = Static<typeof TokenUsage>;

export const MetricsSnapshot = strictObject(
  'MetricsSnapshot',
  'Usage and cost of every LLM call of the conversation (agent, condenser and critic together); per `usage_id` in `stats`.',
  {
    model_name: Type.String({ description: "The agent's model." }),
    accumulated_cost: Type.Number({ minimum: 0, description: 'Total cost in USD of every LLM call.' }),
    max_budget_per_task: nullable(Type.Number({ description: 'Always null: Bosun has no budget limit.' })),
    accumulated_token_usage: nullable(ref(TokenUsage)),
  },
);
export type MetricsSnapshot = Static<typeof MetricsSnapshot>;
