import type { AgentSession, AnswerStreamPart, LLMUsage, UsageRecord } from '@bosun/agent';
import type {
  ConfirmationPolicy,
  ConversationExecutionStatus,
  NewEvent,
  SecurityAnalyzer,
  StoredEvent,
} from '@bosun/protocol';
import { answerStreamOf } from '../conversations/answer-stream.ts';
import type { Conversation } from '../conversations/conversation.ts';
import { fromRow } from '../conversations/new-event.ts';
import type { ConversationRepository } from '../conversations/repository.ts';

const HISTORY_PAGE = 10_000;
/** How many latencies per usage id the stats keep (the oldest go first). */
const MAX_LATENCIES = 1000;

interface UsageMetrics {
  model_name: string;
  accumulated_cost: number;
  accumulated_token_usage: LLMUsage & { model: string; response_id: string };
  response_latencies: { model: string; latency: number; response_id: string }[];
}

/**
 * The run loop's view of a conversation of the agent server: history read from the durable log (parsed once,
 * then extended incrementally), appends and status changes through the conversation's ordered writer.
 */
export class LogSession implements AgentSession {
  private events: StoredEvent[] = [];
  private seq = 0;

  constructor(
    private readonly conversation: Conversation,
    private readonly store: Pick<ConversationRepository, 'searchEvents'>,
  ) {}

  get id(): string {
    return this.conversation.id;
  }

  get agent() {
    return this.conversation.record.request.agent;
  }

  get maxIterations(): number {
    return this.conversation.record.request.max_iterations;
  }

  get stuckDetection(): boolean {
    return this.conversation.record.request.stuck_detection;
  }

  confirmationPolicy(): ConfirmationPolicy {
    return this.conversation.record.request.confirmation_policy;
  }

  securityAnalyzer(): SecurityAnalyzer | null {
    return this.conversation.record.request.security_analyzer ?? null;
  }

  async history(): Promise<readonly StoredEvent[]> {
    // Nothing committed since the last read (a new conversation, or a step that appended nothing yet): no query.
    if (this.conversation.lastSeq === this.seq) return this.events;
    for (;;) {
      const page = this.store.searchEvents(this.conversation.id, {
        afterSeq: this.seq,
        descending: false,
        limit: HISTORY_PAGE,
      });
      for (const row of page) this.events.push(fromRow(row));
      if (page.length) this.seq = page[page.length - 1]?.seq as number;
      if (page.length < HISTORY_PAGE) return this.events;
    }
  }

  append(events: NewEvent[]): Promise<StoredEvent[]> {
    return this.conversation.append(events);
  }

  streamAnswer(part: AnswerStreamPart): void {
    answerStreamOf(this.conversation).publish(part);
  }

  blockedMessages(): Readonly<Record<string, string>> {
    return this.conversation.record.blocked_messages;
  }

  blockAction(actionId: string, reason: string): Promise<void> {
    return this.conversation.update((record) => {
      record.blocked_actions = { ...record.blocked_actions, [actionId]: reason };
    });
  }

  status(): ConversationExecutionStatus {
    return this.conversation.record.execution_status;
  }

  setStatus(status: ConversationExecutionStatus, extra: NewEvent[] = []): Promise<void> {
    return this.conversation.setStatus(status, extra);
  }

  async recordUsage({ usageId, model, usage, cost, latencyMs, responseId }: UsageRecord): Promise<void> {
    // Added to the stats the writes before this one leave, so usage recorded at once is never lost.
    await this.conversation.decide((record) => {
      const metrics = record.stats.usage_to_metrics;
      const previous = metrics[usageId] as UsageMetrics | undefined;
      const total = previous?.accumulated_token_usage;
      const next: UsageMetrics = {
        model_name: model,
        accumulated_cost: (previous?.accumulated_cost ?? 0) + cost,
        accumulated_token_usage: {
          model,
          response_id: responseId,
          prompt_tokens: (total?.prompt_tokens ?? 0) + usage.prompt_tokens,
          completion_tokens: (total?.completion_tokens ?? 0) + usage.completion_tokens,
          reasoning_tokens: (total?.reasoning_tokens ?? 0) + usage.reasoning_tokens,
          cache_read_tokens: (total?.cache_read_tokens ?? 0) + usage.cache_read_tokens,
          cache_write_tokens: (total?.cache_write_tokens ?? 0) + usage.cache_write_tokens,
        },
        response_latencies: [
          ...(previous?.response_latencies ?? []),
          { model, latency: latencyMs / 1000, response_id: responseId },
        ].slice(-MAX_LATENCIES),
      };
      record.stats = { usage_to_metrics: { ...(metrics as Record<string, UsageMetrics>), [usageId]: next } };
      return [
        {
          kind: 'ConversationStateUpdateEvent',
          source: 'environment',
          key: 'stats',
          value: snapshot(record.stats as { usage_to_metrics: Record<string, UsageMetrics> }),
        },
      ];
    });
  }
}

/** Stats as state-update events carry them: without the per-response latency list. */
function snapshot(stats: { usage_to_metrics: Record<string, UsageMetrics> }) {
  return {
    usage_to_metrics: Object.fromEntries(
      Object.entries(stats.usage_to_metrics).map(([id, { response_latencies: _l, ...rest }]) => [id, rest]),
    ),
  };
}
