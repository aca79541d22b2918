import { metricsSnapshot } from '../conversations/metrics.ts';
import type { ConversationRecord } from '../conversations/record.ts';

/** What of a conversation's info is worth a post when it changes. */
export function infoSignature(record: ConversationRecord): string {
  const metrics = metricsSnapshot(record);
  return JSON.stringify([
    record.execution_status,
    record.title,
    record.tags,
    metrics.model_name,
    metrics.accumulated_cost,
    metrics.accumulated_token_usage,
  ]);
}
