import type { Insertable, Kysely, Selectable } from 'kysely';
import { type Page, newestFirstPage } from '../pages.ts';
import type { AppConversationsTable, Tables } from '../tables.ts';
import { countOf } from './constraints.ts';

export type AppConversation = Selectable<AppConversationsTable>;
export type NewAppConversation = Insertable<AppConversationsTable>;

/** Rows per INSERT: 7 parameters each stays under both SQLite's and PostgreSQL's parameter limits. */
const INSERT_BATCH = 1_000;

/** The app's conversations, each owned by one user. */
export class ConversationsRepository {
  constructor(private readonly db: Kysely<Tables>) {}

  /** Inserts rows in batches, in one transaction. */
  async insert(rows: NewAppConversation[]): Promise<void> {
    await this.db.transaction().execute((trx) => insertConversations(trx, rows));
  }

  async get(userId: string, id: string): Promise<AppConversation | undefined> {
    return this.db
      .selectFrom('app_conversations')
      .selectAll()
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  async count(userId: string): Promise<number> {
    return countOf(
      await this.db
        .selectFrom('app_conversations')
        .select((eb) => eb.fn.countAll().as('count'))
        .where('user_id', '=', userId)
        .executeTakeFirst(),
    );
  }

  /** The user's conversations, newest first (by creation, then id), a page at a time from the index. */
  page(userId: string, options: { limit: number; pageId?: string }): Promise<Page<AppConversation>> {
    return newestFirstPage(this.db, 'app_conversations', userId, options);
  }
}

/** Inserts rows INSERT_BATCH at a time with `db` (a transaction, for seeding many). */
export async function insertConversations(db: Kysely<Tables>, rows: NewAppConversation[]): Promise<void> {
  for (let start = 0; start < rows.length; start += INSERT_BATCH) {
    await db
      .insertInto('app_conversations')
      .values(rows.slice(start, start + INSERT_BATCH))
      .execute();
  }
}
