import type { AgentSpec, LLMConfig } from '@bosun/protocol';

/** What an `LLMCritic` judges: tool calls, the agent's text answers, or both. */
export type CriticEvaluate = 'actions' | 'messages' | 'all';

/** An `LLMCritic` with its LLM settled. */
export interface CriticSettings {
  llm: LLMConfig;
  evaluate: CriticEvaluate;
  instructions: string | null;
}

/** The usage id of the critic's LLM when it borrows the agent's. */
export const CRITIC_USAGE_ID = 'critic';

/**
 * The agent's critic, if it has one (`null` and absent mean none). Without an `llm` of its own the critic uses
 * the agent's, with usage id `critic`.
 */
export function criticSettings(agent: AgentSpec): CriticSettings | undefined {
  const spec = agent.critic;
  if (!spec || spec.kind !== 'LLMCritic') return undefined;
  return {
    llm: spec.llm ?? { ...agent.llm, usage_id: CRITIC_USAGE_ID },
    evaluate: spec.evaluate,
    instructions: spec.instructions?.trim() || null,
  };
}
