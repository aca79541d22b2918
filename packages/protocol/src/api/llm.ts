import { type Static, Type } from '@sinclair/typebox';
import { nullable, openObject, strictObject, withDefault } from '../schema/builders.ts';

const optionalString = (description?: string) =>
  Type.Optional(nullable(Type.String(description ? { description } : {})));
const optionalNumber = () => Type.Optional(nullable(Type.Number()));
const optionalInteger = () => Type.Optional(nullable(Type.Integer({ minimum: 0 })));

/** How to reach an LLM. Field names follow OpenHands' `LLM` so existing configurations load unchanged. */
export const LLMConfig = strictObject('LLMConfig', 'LLM configuration.', {
  model: Type.String({ minLength: 1, description: 'Model name, optionally with a provider prefix.' }),
  api_key: optionalString('Secret: redacted as `**********` in every response.'),
  base_url: optionalString('Base URL of an OpenAI-compatible or Anthropic API.'),
  api_version: optionalString(),
  aws_access_key_id: optionalString('Secret.'),
  aws_secret_access_key: optionalString('Secret.'),
  aws_region_name: optionalString(),
  openrouter_site_url: optionalString(),
  openrouter_app_name: optionalString(),
  usage_id: withDefault(Type.String({ description: 'Key under which usage and cost are tracked.' }), 'default'),
  num_retries: withDefault(Type.Integer({ minimum: 0 }), 5),
  retry_multiplier: withDefault(Type.Number({ minimum: 0 }), 8),
  retry_min_wait: withDefault(Type.Number({ minimum: 0, description: 'Seconds.' }), 8),
  retry_max_wait: withDefault(Type.Number({ minimum: 0, description: 'Seconds.' }), 64),
  timeout: withDefault(nullable(Type.Number({ minimum: 0, description: 'Seconds per request.' })), 300),
  max_message_chars: withDefault(Type.Integer({ minimum: 1 }), 30000),
  temperature: optionalNumber(),
  top_p: optionalNumber(),
  top_k: optionalNumber(),
  max_input_tokens: optionalInteger(),
  max_output_tokens: optionalInteger(),
  model_canonical_name: optionalString(),
  extra_headers: Type.Optional(nullable(openObject())),
  input_cost_per_token: optionalNumber(),
  output_cost_per_token: optionalNumber(),
  ollama_base_url: optionalString(),
  stream: withDefault(
    Type.Boolean({
      description:
        'Ask for streamed answers (their text reaches `?stream=true` event-socket subscribers as it is written); ' +
        'false for a server that cannot stream. The answer and the events are the same either way.',
    }),
    true,
  ),
  drop_params: withDefault(Type.Boolean(), true),
  modify_params: withDefault(Type.Boolean(), true),
  disable_vision: Type.Optional(nullable(Type.Boolean())),
  disable_stop_word: Type.Optional(nullable(Type.Boolean())),
  caching_prompt: withDefault(Type.Boolean(), true),
  log_completions: withDefault(Type.Boolean({ description: 'Emit an LLMCompletionLogEvent per completion.' }), false),
  log_completions_folder: optionalString(),
  custom_tokenizer: optionalString(),
  native_tool_calling: withDefault(Type.Boolean(), true),
  force_string_serializer: Type.Optional(nullable(Type.Boolean())),
  reasoning_effort: optionalString(),
  reasoning_summary: optionalString(),
  enable_encrypted_reasoning: withDefault(Type.Boolean(), true),
  prompt_cache_retention: optionalString(),
  extended_thinking_budget: optionalInteger(),
  seed: Type.Optional(nullable(Type.Integer())),
  safety_settings: Type.Optional(nullable(Type.Array(openObject()))),
  litellm_extra_body: Type.Optional(openObject()),
});
export type LLMConfig = Static<typeof LLMConfig>;

/** The fields of an LLM configuration that hold secrets. */
export const LLM_SECRET_FIELDS = ['api_key', 'aws_access_key_id', 'aws_secret_access_key'] as const;
