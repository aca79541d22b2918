import type { StoredSettings } from '../identity/stores.ts';
import { type LlmRetryPolicy, retryPolicyOf } from './llm-retry.ts';

/** The instance's LLM, from `BOSUN_LLM_MODEL`, `BOSUN_LLM_BASE_URL` and `BOSUN_LLM_API_KEY`. */
export interface LlmDefaults {
  model?: string | undefined;
  baseUrl?: string | undefined;
  apiKey?: string | undefined;
}

/** The LLM a user's conversations use: their own settings over the instance's defaults. */
export interface EffectiveLlm {
  model: string | null;
  baseUrl: string | null;
  apiKey: string | null;
  /** How a failing LLM call is retried (`agent_settings.llm`); unset fields keep the agent's defaults. */
  retry?: LlmRetryPolicy;
}

const text = (value: unknown) => (typeof value === 'string' && value.length > 0 ? value : undefined);

/**
 * The user's LLM over the instance's. The instance's API key goes only to the instance's endpoint: a user who
 * points `llm_base_url` elsewhere must bring their own key, so the instance key never leaks to another host.
 */
export function effectiveLlm(stored: StoredSettings, defaults: LlmDefaults): EffectiveLlm {
  const ownBaseUrl = 'llm_base_url' in stored ? (text(stored.llm_base_url) ?? null) : undefined;
  const baseUrl = ownBaseUrl === undefined ? (defaults.baseUrl ?? null) : ownBaseUrl;
  const sameEndpoint = ownBaseUrl === undefined || ownBaseUrl === (defaults.baseUrl ?? null);
  return {
    model: text(stored.llm_model) ?? defaults.model ?? null,
    baseUrl,
    apiKey: text(stored.llm_api_key) ?? (sameEndpoint ? (defaults.apiKey ?? null) : null),
    retry: retryPolicyOf(stored),
  };
}
