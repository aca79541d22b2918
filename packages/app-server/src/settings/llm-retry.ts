import type { StoredSettings } from '../identity/stores.ts';

/** How a user's conversations retry a failing LLM call (the agent's LLM configuration fields of the same names). */
export interface LlmRetryPolicy {
  num_retries?: number;
  retry_min_wait?: number;
  retry_max_wait?: number;
  retry_multiplier?: number;
}

/** The fields, each with what it must be: a count of retries, or seconds (the multiplier: a factor). */
const FIELDS = {
  num_retries: { integer: true, max: 100 },
  retry_min_wait: { integer: false, max: 3600 },
  retry_max_wait: { integer: false, max: 3600 },
  retry_multiplier: { integer: false, max: 100 },
} as const;

type Field = keyof typeof FIELDS;

const llmOf = (agentSettings: unknown): Record<string, unknown> | undefined => {
  const llm = (agentSettings as { llm?: unknown } | null | undefined)?.llm;
  return llm && typeof llm === 'object' && !Array.isArray(llm) ? (llm as Record<string, unknown>) : undefined;
};

/** What is wrong with the retry policy an `agent_settings_diff` sets (`llm.num_retries`, ...), as 422 details. */
export function retryPolicyProblems(diff: unknown): { loc: (string | number)[]; msg: string; type: string }[] {
  const llm = llmOf(diff);
  if (!llm) return [];
  return (Object.keys(FIELDS) as Field[]).flatMap((field) => {
    const value = llm[field];
    if (value === undefined || value === null) return [];
    const { integer, max } = FIELDS[field];
    const ok = typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= max;
    if (ok && (!integer || Number.isInteger(value))) return [];
    const what = integer ? `an integer from 0 to ${max}` : `a number from 0 to ${max}`;
    return [{ loc: ['body', 'agent_settings_diff', 'llm', field], msg: `must be ${what}`, type: 'value_error' }];
  });
}

/** The retry policy a user's settings set (`agent_settings.llm`): only the fields they set. */
export function retryPolicyOf(stored: StoredSettings): LlmRetryPolicy {
  const llm = llmOf(stored.agent_settings);
  if (!llm || retryPolicyProblems({ llm }).length) return {};
  const policy: LlmRetryPolicy = {};
  for (const field of Object.keys(FIELDS) as Field[]) {
    const value = llm[field];
    if (typeof value === 'number') policy[field] = value;
  }
  return policy;
}
