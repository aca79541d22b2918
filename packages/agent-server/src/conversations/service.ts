import { randomUUID } from 'node:crypto';
import { pendingActions } from '@bosun/agent';
import type {
  ConversationExecutionStatus,
  ForkConversationRequest,
  NewEvent,
  ResolvedStartRequest,
} from '@bosun/protocol';
import { Conversation } from './conversation.ts';
import type { ConversationObserver } from './conversation.ts';
import { EventLog } from './event-log.ts';
import { forkConversation } from './fork.ts';
import { now } from './new-event.ts';
import { type ConversationRecord, newCatalogRow, newRecord } from './record.ts';
import type { ConversationRepository } from './repository.ts';
import { pause, stopRun } from './runs.ts';

/** How long stopping the service waits for each cancelled run to end before it moves on. */
export const RUN_STOP_DEADLINE_MS = 5_000;

export const CONVERSATION_SORT_ORDERS = ['CREATED_AT', 'UPDATED_AT', 'CREATED_AT_DESC', 'UPDATED_AT_DESC'] as const;
export type ConversationSortOrder = (typeof CONVERSATION_SORT_ORDERS)[number];

export interface ConversationSearch {
  status?: ConversationExecutionStatus;
  sortOrder: ConversationSortOrder;
  pageId?: string;
  limit: number;
}

/**
 * The conversations of the server. The catalog lives in the store; a conversation is loaded into memory when
 * first used and evicted after `idleTtlMs` without activity (never while running or followed by a client).
 */
export class ConversationService {
  private readonly loaded = new Map<string, Conversation>();
  /** Conversations being created (not visible yet), by id. */
  private readonly creating = new Map<string, Promise<{ conversation: Conversation; created: boolean }>>();
  private evictionTimer: NodeJS.Timeout | undefined;
  /** When an event other than a state update was last appended to any conversation (or the service started). */
  lastActivityAt = Date.now();
  private readonly markActivity = () => {
    this.lastActivityAt = Date.now();
  };

  /** What is read of the conversations' logs. */
  readonly events: EventLog;

  constructor(
    private readonly store: ConversationRepository,
    private readonly options: {
      idleTtlMs: number;
      /** Told of every durable change of every conversation (webhooks). */
      observer?: ConversationObserver;
    },
  ) {
    this.events = new EventLog(store);
  }

  /**
   * Brings the catalog to a consistent state after a restart: a conversation found `running` had its run cut
   * off by the crash, so it is marked interrupted (see `markInterrupted`).
   */
  async recover(): Promise<number> {
    const interrupted = this.store.conversationIdsWithStatus('running');
    await Promise.all(
      interrupted.map(async (id) => {
        const conversation = this.get(id);
        if (!conversation) return;
        await this.markInterrupted(conversation, {
          code: 'ServerRestarted',
          detail: 'The server stopped while this conversation was running; run it again to continue.',
        });
      }),
    );
    return interrupted.length;
  }

  /**
   * A run that was cut off: each tool call left without a result gets an `AgentErrorEvent` (it is not run again
   * blindly), and the conversation moves to `error` with a `ConversationErrorEvent` saying why.
   */
  private async markInterrupted(conversation: Conversation, why: { code: string; detail: string }): Promise<void> {
    const orphans: NewEvent[] = pendingActions(this.events.history(conversation.id)).map((action) => ({
      kind: 'AgentErrorEvent',
      source: 'agent',
      tool_name: action.tool_name,
      tool_call_id: action.tool_call_id,
      error:
        'The server stopped while this tool was in progress; it may have run partly. Check its effects before retrying.',
    }));
    await conversation.setStatus('error', [
      ...orphans,
      { kind: 'ConversationErrorEvent', source: 'environment', ...why },
    ]);
  }

  startEvictions(): void {
    const every = Math.max(1000, Math.min(60_000, this.options.idleTtlMs / 2));
    this.evictionTimer = setInterval(() => this.evictIdle(), every);
    this.evictionTimer.unref();
  }

  /**
   * Stops the service: every run is cancelled (waiting at most `RUN_STOP_DEADLINE_MS` for it to end), a
   * conversation left `running` is marked interrupted as a restart would, then every agent's resources (shells,
   * MCP servers, browsers) are released.
   */
  async close(): Promise<void> {
    if (this.evictionTimer) clearInterval(this.evictionTimer);
    const conversations = [...this.loaded.values()];
    await Promise.allSettled(
      conversations.map(async (conversation) => {
        await stopRun(conversation, RUN_STOP_DEADLINE_MS);
        if (conversation.record.execution_status !== 'running') return;
        await this.markInterrupted(conversation, {
          code: 'ServerStopped',
          detail: 'The server was stopped while this conversation was running; run it again to continue.',
        });
      }),
    );
    await Promise.allSettled(conversations.map((conversation) => conversation.release()));
    this.loaded.clear();
  }

  /** Drops idle conversations from memory; returns how many. */
  evictIdle(at = Date.now()): number {
    let evicted = 0;
    for (const [id, conversation] of this.loaded) {
      if (conversation.activeRun || conversation.subscriberCount > 0) continue;
      if (at - conversation.lastActive < this.options.idleTtlMs) continue;
      this.loaded.delete(id);
      void conversation.release();
      evicted++;
    }
    return evicted;
  }

  get loadedCount(): number {
    return this.loaded.size;
  }

  /** The conversation, loading it from the catalog if needed; undefined if there is none. */
  get(id: string): Conversation | undefined {
    const key = id.toLowerCase();
    const cached = this.loaded.get(key);
    if (cached) {
      cached.lastActive = Date.now();
      return cached;
    }
    // Not before its creation is over (its row may already be durable, with other writes' fsync).
    if (this.creating.has(key)) return undefined;
    const row = this.store.getConversation(key);
    if (!row) return undefined;
    const conversation = new Conversation(key, JSON.parse(row.data) as ConversationRecord, row.last_seq, this.store, {
      onActivity: this.markActivity,
      observer: this.options.observer,
    });
    this.loaded.set(key, conversation);
    return conversation;
  }

  /**
   * Creates a conversation, or returns the existing one when `conversation_id` is already taken. `prepare` runs
   * before anyone else can see the conversation; what it writes is made durable with the conversation's row,
   * by one fsync before this resolves.
   */
  async create(
    request: ResolvedStartRequest,
    prepare?: (conversation: Conversation) => Promise<void>,
  ): Promise<{ conversation: Conversation; created: boolean }> {
    const id = (request.conversation_id ?? randomUUID()).toLowerCase();
    const existing = this.get(id);
    if (existing) return { conversation: existing, created: false };
    const underway = this.creating.get(id);
    if (underway) return { conversation: (await underway).conversation, created: false };
    const creation = this.createNew(id, request, prepare);
    this.creating.set(id, creation);
    try {
      return await creation;
    } finally {
      this.creating.delete(id);
    }
  }

  private async createNew(
    id: string,
    request: ResolvedStartRequest,
    prepare: ((conversation: Conversation) => Promise<void>) | undefined,
  ): Promise<{ conversation: Conversation; created: boolean }> {
    const at = now();
    const record = newRecord({ ...request, conversation_id: id }, at);
    const row = newCatalogRow(id, record);
    const conversation = new Conversation(id, record, 0, this.store, {
      creating: true,
      onActivity: this.markActivity,
      observer: this.options.observer,
    });
    try {
      await this.store.enqueue({ apply: () => this.store.insertConversationSql(row) }, false);
    } catch (error) {
      // Another process created the same id first: return its conversation.
      await this.store.sync();
      const winner = this.get(id);
      if (winner) return { conversation: winner, created: false };
      throw error;
    }
    try {
      await prepare?.(conversation);
    } finally {
      await conversation.created();
      this.loaded.set(id, conversation);
      this.options.observer?.created(conversation);
    }
    return { conversation, created: true };
  }

  /** The records of the conversations in `status`, read from the catalog without loading them. */
  recordsWithStatus(status: ConversationExecutionStatus): { id: string; record: ConversationRecord }[] {
    return this.store.conversationIdsWithStatus(status).flatMap((id) => {
      const row = this.store.getConversation(id);
      return row ? [{ id, record: JSON.parse(row.data) as ConversationRecord }] : [];
    });
  }

  /** Forks `source` (see `forkConversation`); `stateDir` is the directory of a conversation's files. */
  async fork(
    source: Conversation,
    request: ForkConversationRequest,
    stateDir: (id: string) => string,
  ): Promise<Conversation> {
    const fork = await forkConversation(this.store, (id) => this.get(id), stateDir, source, request);
    this.options.observer?.created(fork);
    return fork;
  }

  /** Deletes a conversation and its events (its run paused first); false when there is none. */
  async delete(id: string): Promise<boolean> {
    const key = id.toLowerCase();
    if (!this.store.getConversation(key)) return false;
    // Paused first: a run in progress stops between steps.
    const running = this.loaded.get(key);
    if (running?.activeRun) await pause(running);
    const observed = this.options.observer && this.get(key);
    await this.store.enqueue({ apply: () => this.store.deleteConversationSql(key) });
    if (observed) this.options.observer?.deleted(observed);
    await this.loaded.get(key)?.release();
    this.loaded.delete(key);
    return true;
  }

  count(status?: ConversationExecutionStatus): number {
    return this.store.countConversations(status);
  }

  /**
   * A page of conversations. `pageId` is the id of the first conversation of the page (the `next_page_id` of
   * the previous page); an unknown one returns undefined.
   */
  search(query: ConversationSearch): { ids: string[]; nextPageId: string | null } | undefined {
    const orderBy = query.sortOrder.startsWith('CREATED_AT') ? 'created_at' : 'updated_at';
    let from: { value: string; id: string } | undefined;
    if (query.pageId !== undefined) {
      const anchor = this.store.getConversation(query.pageId.toLowerCase());
      if (!anchor) return undefined;
      from = { value: anchor[orderBy], id: anchor.id };
    }
    const ids = this.store.conversationIds({
      ...(query.status ? { status: query.status } : {}),
      orderBy,
      descending: query.sortOrder.endsWith('_DESC'),
      ...(from ? { from } : {}),
      limit: query.limit + 1,
    });
    const next = ids.length > query.limit ? (ids.pop() as string) : null;
    return { ids, nextPageId: next };
  }
}
