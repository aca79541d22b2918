import type { NewEvent } from '@bosun/protocol';
import type { LLMResponse } from './types.ts';

/**
 * An `LLMCompletionLogEvent` for one completion. Opaque reasoning state (`encrypted_content`) is never logged:
 * it is replaced by a marker wherever it appears.
 */
export function completionLogEvent(response: LLMResponse, usageId: string, modelName: string): NewEvent {
  const logData = {
    response_id: response.id,
    latency_ms: Math.round(response.latencyMs * 1000) / 1000,
    usage: response.usage,
    request: withoutEncryptedContent(response.exchange.request),
    response: withoutEncryptedContent(response.exchange.response),
  };
  return {
    kind: 'LLMCompletionLogEvent',
    source: 'environment',
    filename: `${modelName.replace(/[^\w.-]+/g, '__')}-${Date.now()}.json`,
    log_data: JSON.stringify(logData),
    model_name: modelName,
    usage_id: usageId,
  };
}

export function withoutEncryptedContent(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutEncryptedContent);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, child]) => [
      key,
      key === 'encrypted_content' && child != null ? '<encrypted>' : withoutEncryptedContent(child),
    ]),
  );
}
