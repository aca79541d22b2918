import { BosunApiError } from '@bosun/client';
import { SerialQueues } from '@bosun/runtime';
import type { Cache } from '../cache/index.ts';
import type { EventsRepository, IncomingEvent } from '../data/index.ts';
import { type AgentSource, type ConversationRef, agentClientOf } from './agent-source.ts';
import { utcOf } from './incoming.ts';
import { publishEvents } from './live.ts';

/** Where the intake reports what goes wrong away from any caller (an unreachable agent server). */
export interface EventsLogger {
  warn(details: object, message: string): void;
}

/** Events per page of a pull (the agent server's largest). */
const PULL_PAGE = 100;

/**
 * The one writer of each conversation's events in this app: webhook batches and pulls from the agent server go
 * through a queue per conversation, so the app's order is the agent server's. Stored first, then published.
 *
 * A webhook batch is appended as it is when its first new event is the one the agent server has right after the
 * app's last (one cheap search of the agent server, `after_event_id=<last>&limit=1`). Otherwise (an earlier batch
 * was lost or is late) the app pulls what it lacks from the agent server, in the agent server's order, which also
 * brings the batch's events. When the agent server cannot say (unreachable, or it does not know the conversation
 * or the app's last event), the batch is appended: a sandbox's events are never dropped.
 */
export class EventIntake {
  private readonly queues = new SerialQueues();
  /** A pull queued and not started yet, per conversation: a second request joins it. */
  private readonly pendingPulls = new Map<string, Promise<number>>();

  constructor(
    private readonly repository: EventsRepository,
    private readonly cache: Cache,
    private readonly log: EventsLogger,
  ) {}

  /** Stores a batch a sandbox sent (see the class); resolves once every event of it is durable. */
  receive(
    conversation: ConversationRef,
    source: AgentSource | undefined,
    events: readonly IncomingEvent[],
  ): Promise<void> {
    return this.queues.run(conversation.id, async () => {
      const known = await this.repository.known(
        conversation.id,
        events.map((event) => event.id),
      );
      const fresh = events.filter((event) => !known.has(event.id));
      const first = fresh[0];
      if (!first) return;
      const last = await this.repository.last(conversation.id);
      const next = source && (await this.nextOnAgent(conversation, source, last?.event_id));
      if (source && next !== undefined && next !== null && next !== first.id) await this.pullNow(conversation, source);
      await this.store(conversation, fresh);
    });
  }

  /** Stores what the agent server has after the app's last event; answers how many events were stored. */
  pull(conversation: ConversationRef, source: AgentSource): Promise<number> {
    const pending = this.pendingPulls.get(conversation.id);
    if (pending) return pending;
    const pull = this.queues.run(conversation.id, () => {
      this.pendingPulls.delete(conversation.id);
      return this.pullNow(conversation, source);
    });
    this.pendingPulls.set(conversation.id, pull);
    return pull;
  }

  /** Resolves once every write queued so far has ended. */
  async idle(): Promise<void> {
    await this.queues.idle();
  }

  private async pullNow(conversation: ConversationRef, source: AgentSource): Promise<number> {
    const client = agentClientOf(source);
    let after = (await this.repository.last(conversation.id))?.event_id;
    let stored = 0;
    for (;;) {
      let items: unknown[];
      try {
        const query = { limit: PULL_PAGE, ...(after === undefined ? {} : { after_event_id: after }) };
        items = (
          await client.get('/api/conversations/{conversation_id}/events/search', {
            params: { conversation_id: conversation.id },
            query,
          })
        ).items;
      } catch (error) {
        this.reportAgentError(conversation, error, 'could not pull events from the agent server');
        return stored;
      }
      const events = items.flatMap((item) => pulledEvent(item) ?? []);
      stored += await this.store(conversation, events);
      const lastItem = events.at(-1);
      if (items.length < PULL_PAGE || !lastItem) return stored;
      after = lastItem.id;
    }
  }

  /** The id of the event the agent server has after `afterId` (null: none; undefined: it cannot say). */
  private async nextOnAgent(
    conversation: ConversationRef,
    source: AgentSource,
    afterId: string | undefined,
  ): Promise<string | null | undefined> {
    try {
      const query = { limit: 1, ...(afterId === undefined ? {} : { after_event_id: afterId }) };
      const page = await agentClientOf(source).get('/api/conversations/{conversation_id}/events/search', {
        params: { conversation_id: conversation.id },
        query,
      });
      return page.items[0]?.id ?? null;
    } catch (error) {
      this.reportAgentError(conversation, error, 'could not check the order of a webhook batch');
      return undefined;
    }
  }

  private async store(conversation: ConversationRef, events: readonly IncomingEvent[]): Promise<number> {
    if (events.length === 0) return 0;
    const rows = await this.repository.append(conversation.id, conversation.userId, events);
    if (rows.length === 0) return 0;
    // Stored is what counts: a socket that misses this message reads the store on the next one.
    await publishEvents(this.cache, conversation.id, rows).catch((error: Error) =>
      this.log.warn({ conversation_id: conversation.id, err: error }, 'could not publish stored events'),
    );
    return rows.length;
  }

  private reportAgentError(conversation: ConversationRef, error: unknown, message: string): void {
    // A conversation the agent server does not have yet (its start is under way) is not worth a warning.
    if (error instanceof BosunApiError && error.status === 404) return;
    this.log.warn({ conversation_id: conversation.id, reason: (error as Error).message }, message);
  }
}

/** An event from the agent server's search (trusted: the app asked it), or undefined when it lacks what is kept. */
function pulledEvent(value: unknown): IncomingEvent | undefined {
  const { id, kind, timestamp, source } = (value ?? {}) as Record<string, unknown>;
  if (typeof id !== 'string' || typeof kind !== 'string' || typeof timestamp !== 'string') return undefined;
  const utc = utcOf(timestamp);
  if (utc === undefined) return undefined;
  return {
    id,
    kind,
    timestamp: utc,
    source: typeof source === 'string' ? source : 'environment',
    json: JSON.stringify(value),
  };
}
