import type { LLMConfig } from '@bosun/protocol';
import { AnthropicProvider } from './anthropic.ts';
import { ChatCompletionsProvider } from './chat-completions.ts';
import { ResponsesProvider } from './responses.ts';
import type { LLMProvider } from './types.ts';

export type WireApi = 'chat_completions' | 'responses' | 'anthropic';

/**
 * Which wire API a model is reached through: `anthropic/...` and `claude...` models through Anthropic
 * Messages, `openai/responses/...` (or `responses/...`) through the Responses API, anything else through
 * Chat Completions, which every OpenAI-compatible server speaks.
 */
export function wireApiOf(model: string): WireApi {
  const name = model.toLowerCase();
  if (name.startsWith('anthropic/') || name.startsWith('claude')) return 'anthropic';
  if (name.startsWith('openai/responses/') || name.startsWith('responses/')) return 'responses';
  return 'chat_completions';
}

export function createProvider(config: LLMConfig): LLMProvider {
  switch (wireApiOf(config.model)) {
    case 'anthropic':
      return new AnthropicProvider(config);
    case 'responses':
      return new ResponsesProvider(config);
    default:
      return new ChatCompletionsProvider(config);
  }
}
