import type { Kysely, Selectable } from 'kysely';
import type { PendingMessagesTable, Tables } from '../tables.ts';
import { countRows } from './count.ts';

export type PendingMessageRecord = Selectable<PendingMessagesTable>;

/** Where a message waits: a start task's conversation-to-be, or a conversation. */
export type PendingTarget = { taskId: string; conversationId: null } | { taskId: null; conversationId: string };

export interface NewPendingMessage {
  id: string;
  userId: string;
  target: PendingTarget;
  role: string;
  content: string;
}

/** Messages waiting for a conversation's agent, each delivered once (then kept, marked delivered). */
export class PendingMessagesRepository {
  constructor(private readonly db: Kysely<Tables>) {}

  /** Stores the message after those waiting for its target; answers it and how many wait (it included). */
  async add(message: NewPendingMessage): Promise<{ record: PendingMessageRecord; waiting: number }> {
    return this.db.transaction().execute(async (trx) => {
      const last = await this.ofTarget(trx, message.target)
        .select((eb) => eb.fn.max('seq').as('seq'))
        .executeTakeFirst();
      const record: PendingMessageRecord = {
        id: message.id,
        user_id: message.userId,
        task_id: message.target.taskId,
        conversation_id: message.target.conversationId,
        seq: Number(last?.seq ?? 0) + 1,
        role: message.role,
        content: message.content,
        created_at: new Date().toISOString(),
        attempted_at: null,
        delivered_at: null,
      };
      await trx.insertInto('app_pending_messages').values(record).execute();
      return { record, waiting: await this.waitingIn(trx, message.target) };
    });
  }

  /** How many of the target's messages wait. */
  waiting(target: PendingTarget): Promise<number> {
    return this.waitingIn(this.db, target);
  }

  /** The task's waiting messages now wait for its conversation. */
  async bindTask(taskId: string, conversationId: string): Promise<void> {
    await this.db
      .updateTable('app_pending_messages')
      .set({ conversation_id: conversationId })
      .where('task_id', '=', taskId)
      .where('conversation_id', 'is', null)
      .execute();
  }

  /** The conversation's waiting messages, oldest first (the first `limit`). */
  undelivered(conversationId: string, limit = 1000): Promise<PendingMessageRecord[]> {
    return this.db
      .selectFrom('app_pending_messages')
      .selectAll()
      .where('conversation_id', '=', conversationId)
      .where('delivered_at', 'is', null)
      .orderBy('created_at')
      .orderBy('seq')
      .limit(limit)
      .execute();
  }

  /**
   * Marks the message posted at `at` unless its attempt is no longer `previous` (another replica claimed it since,
   * or it was delivered): answers whether this caller holds the claim.
   */
  async claim(id: string, previous: string | null, at = new Date().toISOString()): Promise<boolean> {
    const result = await this.db
      .updateTable('app_pending_messages')
      .set({ attempted_at: at })
      .where('id', '=', id)
      .where('delivered_at', 'is', null)
      .where('attempted_at', previous === null ? 'is' : '=', previous)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async markDelivered(id: string): Promise<void> {
    await this.db
      .updateTable('app_pending_messages')
      .set({ delivered_at: new Date().toISOString() })
      .where('id', '=', id)
      .execute();
  }

  /** Conversations with messages waiting, and tasks whose waiting messages have no conversation yet. */
  async targetsWaiting(): Promise<{ conversationIds: string[]; taskIds: string[] }> {
    const rows = await this.db
      .selectFrom('app_pending_messages')
      .select(['task_id', 'conversation_id'])
      .distinct()
      .where('delivered_at', 'is', null)
      .execute();
    const conversationIds = new Set<string>();
    const taskIds = new Set<string>();
    for (const row of rows) {
      if (row.conversation_id !== null) conversationIds.add(row.conversation_id);
      else if (row.task_id !== null) taskIds.add(row.task_id);
    }
    return { conversationIds: [...conversationIds], taskIds: [...taskIds] };
  }

  private ofTarget(db: Kysely<Tables>, target: PendingTarget) {
    const query = db.selectFrom('app_pending_messages');
    return target.taskId !== null
      ? query.where('task_id', '=', target.taskId)
      : query.where('conversation_id', '=', target.conversationId);
  }

  private async waitingIn(db: Kysely<Tables>, target: PendingTarget): Promise<number> {
    return countRows(this.ofTarget(db, target).where('delivered_at', 'is', null));
  }
}
