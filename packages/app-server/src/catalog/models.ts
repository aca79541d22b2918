/**
 * The LLM providers and models the app offers to pick from: a small curated list, kept by hand. A user may still
 * set any `llm_model`: the catalog is what the settings page suggests, not what the app allows.
 *
 * Bosun's agent speaks three wire formats (`packages/agent/src/llm/provider.ts`): Anthropic Messages for
 * `anthropic/...`, OpenAI Responses for `openai/responses/...` and Chat Completions for everything else. A
 * provider is `verified` when its wire format is the one Bosun's tests exercise against the scripted LLM server
 * (`@bosun/llm-replay`) as that provider speaks it: OpenAI (Chat Completions and Responses) and Anthropic. The
 * others are OpenAI-compatible endpoints reached through Chat Completions (set `llm_base_url` to theirs).
 */
export interface CatalogProvider {
  name: string;
  verified: boolean;
  models: readonly string[];
}

export const MODEL_CATALOG: readonly CatalogProvider[] = [
  {
    name: 'anthropic',
    verified: true,
    models: ['claude-opus-4-5', 'claude-sonnet-4-5', 'claude-haiku-4-5', 'claude-opus-4-1', 'claude-sonnet-4'],
  },
  {
    name: 'openai',
    verified: true,
    models: [
      'gpt-5.1',
      'gpt-5',
      'gpt-5-mini',
      'gpt-5-nano',
      'gpt-5-codex',
      'responses/gpt-5.1',
      'responses/gpt-5-codex',
      'gpt-4.1',
      'gpt-4o',
      'o3',
      'o4-mini',
    ],
  },
  { name: 'gemini', verified: false, models: ['gemini-3-pro-preview', 'gemini-2.5-pro', 'gemini-2.5-flash'] },
  {
    name: 'openrouter',
    verified: false,
    models: ['anthropic/claude-sonnet-4.5', 'openai/gpt-5', 'google/gemini-2.5-pro', 'qwen/qwen3-coder'],
  },
  { name: 'deepseek', verified: false, models: ['deepseek-chat', 'deepseek-reasoner'] },
  {
    name: 'mistral',
    verified: false,
    models: ['devstral-medium-latest', 'devstral-small-latest', 'mistral-large-latest', 'codestral-latest'],
  },
  // A LiteLLM proxy serves what its administrator configured: these are common route names, nothing more.
  { name: 'litellm_proxy', verified: false, models: ['claude-sonnet-4-5', 'gpt-5'] },
];
