import { type Static, Type } from '@sinclair/typebox';
import { nullable, strictObject } from '../schema/builders.ts';

/**
 * A check of an LLM configuration: one tiny completion, made by the app server, so that a person sees at once
 * whether the model, base URL and key work (and the provider's own error when they do not).
 */

export const LLMCheckRequest = strictObject(
  'LLMCheckRequest',
  'The LLM to check; each field left out is the caller’s effective settings’ (theirs over the instance’s).',
  {
    model: Type.Optional(
      nullable(Type.String({ minLength: 1, maxLength: 256, pattern: '\\S', description: 'As `llm_model`.' })),
    ),
    base_url: Type.Optional(
      nullable(
        Type.String({ maxLength: 2048, description: 'Base URL of the LLM API; null for the provider default.' }),
      ),
    ),
    api_key: Type.Optional(
      nullable(
        Type.String({
          minLength: 1,
          maxLength: 4096,
          writeOnly: true,
          description: 'Never returned; left out: the stored key (the instance’s only for the instance’s endpoint).',
        }),
      ),
    ),
  },
);
export type LLMCheckRequest = Static<typeof LLMCheckRequest>;

export const LLMCheckResult = strictObject(
  'LLMCheckResult',
  'What the LLM answered: `ok` with its short answer and the latency, or the provider’s error as it gave it ' +
    '(the key masked wherever it appears).',
  {
    ok: Type.Boolean(),
    model: nullable(Type.String({ description: 'The model checked.' })),
    latency_ms: nullable(Type.Integer({ minimum: 0, description: 'How long the LLM took to answer.' })),
    answer: Type.Optional(nullable(Type.String({ description: 'The model’s answer, when ok.' }))),
    error: Type.Optional(nullable(Type.String({ description: 'Why it failed, in the provider’s words.' }))),
    status: Type.Optional(nullable(Type.Integer({ description: 'The provider’s HTTP status, when it answered.' }))),
  },
);
export type LLMCheckResult = Static<typeof LLMCheckResult>;
