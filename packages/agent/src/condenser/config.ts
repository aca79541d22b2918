import type { AgentSpec, LLMConfig, ValidationError } from '@bosun/protocol';

/** An `LLMSummarizingCondenser` with its LLM settled. */
export interface CondenserSettings {
  maxSize: number;
  keepFirst: number;
  maxTokens: number | null;
  llm: LLMConfig;
}

/** The usage id of the condenser's LLM when it borrows the agent's. */
export const CONDENSER_USAGE_ID = 'condenser';

/**
 * The agent's condenser, if it has one: `null`, absent and `NoOpCondenser` mean none. Without an `llm` of its
 * own the condenser uses the agent's, with usage id `condenser`.
 */
export function condenserSettings(agent: AgentSpec): CondenserSettings | undefined {
  const spec = agent.condenser;
  if (!spec || spec.kind !== 'LLMSummarizingCondenser') return undefined;
  return {
    maxSize: spec.max_size,
    keepFirst: spec.keep_first,
    maxTokens: spec.max_tokens ?? null,
    llm: spec.llm ?? { ...agent.llm, usage_id: CONDENSER_USAGE_ID },
  };
}

/**
 * What the schema cannot say about a condenser, as 422 details: `keep_first` must leave room for a tail, so
 * that a condensation by size makes progress (`keep_first < max_size // 2 - 1`, as OpenHands requires).
 */
export function condenserProblems(agent: AgentSpec, loc: (string | number)[]): ValidationError[] {
  const spec = agent.condenser;
  if (!spec || spec.kind !== 'LLMSummarizingCondenser') return [];
  const limit = Math.floor(spec.max_size / 2) - 1;
  if (spec.keep_first < limit) return [];
  return [
    {
      loc: [...loc, 'condenser', 'keep_first'],
      msg: `keep_first (${spec.keep_first}) must be less than max_size // 2 - 1 (${limit}) so that condensing leaves room for recent events`,
      type: 'value_error',
    },
  ];
}

/** A condensation was asked of an agent without a condenser. */
export class NoCondenserError extends Error {
  constructor() {
    super(
      'This conversation has no condenser: start it with agent.condenser, for example {"kind": "LLMSummarizingCondenser"}.',
    );
    this.name = 'NoCondenserError';
  }
}
