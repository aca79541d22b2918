import { type Insertable, type Kysely, type Selectable, type Updateable, sql } from 'kysely';
import { type Page, newestFirst } from '../pages.ts';
import type { AppConversationsTable, Tables } from '../tables.ts';
import { isForeignKeyViolation } from './constraints.ts';
import { countRows } from './count.ts';
import { OwnedRows } from './owned-rows.ts';
import { containsText } from './text-search.ts';

export type AppConversation = Selectable<AppConversationsTable>;
export type NewAppConversation = Insertable<AppConversationsTable>;
export type AppConversationChange = Omit<Updateable<AppConversationsTable>, 'id' | 'user_id' | 'created_at'>;

/** What a search of a user's conversations keeps (each given filter must hold). */
export interface ConversationFilters {
  titleContains?: string;
  createdAtGte?: string;
  createdAtLt?: string;
  updatedAtGte?: string;
  updatedAtLt?: string;
  sandboxId?: string;
}

/** Rows per INSERT: 13 parameters each stays under both SQLite's and PostgreSQL's parameter limits. */
const INSERT_BATCH = 1_000;

/** The app's conversations, each owned by one user. */
export class ConversationsRepository extends OwnedRows<'app_conversations', 'id'> {
  constructor(db: Kysely<Tables>) {
    super(db, 'app_conversations', 'id');
  }

  /** Inserts rows in batches, in one transaction. */
  async insert(rows: NewAppConversation[]): Promise<void> {
    await this.db.transaction().execute((trx) => insertConversations(trx, rows));
  }

  /** The conversation `id` whoever owns it: only for deciding who may write to it (a sandbox calling in). */
  async getOfAnyUser(id: string): Promise<AppConversation | undefined> {
    return this.db.selectFrom('app_conversations').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The public conversations among `ids` (in no particular order; private and unknown ones left out). */
  async getPublic(ids: readonly string[]): Promise<AppConversation[]> {
    if (ids.length === 0) return [];
    return this.db
      .selectFrom('app_conversations')
      .selectAll()
      .where('id', 'in', [...ids])
      .where('is_public', '=', 1)
      .execute();
  }

  async count(userId: string, filters: ConversationFilters = {}): Promise<number> {
    return countRows(this.filtered(userId, filters));
  }

  /** The user's conversations, newest first (by creation, then id), a page at a time from the index. */
  page(userId: string, options: { limit: number; pageId?: string }): Promise<Page<AppConversation>> {
    return this.search(userId, {}, options);
  }

  /** As `page`, keeping those that pass `filters`. */
  async search(
    userId: string,
    filters: ConversationFilters,
    options: { limit: number; pageId?: string },
  ): Promise<Page<AppConversation>> {
    return newestFirst(this.filtered(userId, filters).selectAll(), options);
  }

  /**
   * A conversation whose organization was deleted while it started is kept as its user's, with no organization, as
   * the deletion keeps the organization's other conversations; any other missing reference is still refused.
   */
  async create(row: NewAppConversation): Promise<void> {
    try {
      await this.db.insertInto('app_conversations').values(row).execute();
    } catch (error) {
      if (!row.org_id || !isForeignKeyViolation(error) || (await this.organizationExists(row.org_id))) throw error;
      await this.db
        .insertInto('app_conversations')
        .values({ ...row, org_id: null })
        .execute();
    }
  }

  private async organizationExists(orgId: string): Promise<boolean> {
    return !!(await this.db.selectFrom('organizations').select('id').where('id', '=', orgId).executeTakeFirst());
  }

  /** Changes the user's conversation (`updated_at` set to now); undefined when it is not theirs. */
  async update(userId: string, id: string, change: AppConversationChange): Promise<AppConversation | undefined> {
    await this.db
      .updateTable('app_conversations')
      .set({ ...change, updated_at: change.updated_at ?? new Date().toISOString() })
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .execute();
    return this.get(userId, id);
  }

  /**
   * As `update`, and names `model` as the conversation's LLM as of `model.at` (the agent server's clock: a report's
   * or a switch's `updated_at`; null: unordered) when that is after what named the row's (or nothing named it in
   * order), decided in the same conditional update: a report older than a switch does not undo it.
   */
  async updateWithModel(
    userId: string,
    id: string,
    change: AppConversationChange,
    model: { name: string; at: string | null },
  ): Promise<void> {
    const newer =
      model.at === null
        ? sql<boolean>`llm_model_at is null`
        : sql<boolean>`(llm_model_at is null or llm_model_at < ${model.at})`;
    await this.db
      .updateTable('app_conversations')
      .set({
        ...change,
        llm_model: sql<string>`case when ${newer} then ${model.name} else llm_model end`,
        llm_model_at: sql<string | null>`case when ${newer} then ${model.at} else llm_model_at end`,
        updated_at: change.updated_at ?? new Date().toISOString(),
      })
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .execute();
  }

  /** How many of the user's conversations run in the sandbox. */
  usingSandbox(userId: string, sandboxId: string): Promise<number> {
    return this.count(userId, { sandboxId });
  }

  private filtered(userId: string, filters: ConversationFilters) {
    let query = this.db.selectFrom('app_conversations').where('user_id', '=', userId);
    const { titleContains, createdAtGte, createdAtLt, updatedAtGte, updatedAtLt, sandboxId } = filters;
    if (titleContains !== undefined) {
      query = query.where(containsText('title', titleContains));
    }
    if (createdAtGte !== undefined) query = query.where('created_at', '>=', createdAtGte);
    if (createdAtLt !== undefined) query = query.where('created_at', '<', createdAtLt);
    if (updatedAtGte !== undefined) query = query.where('updated_at', '>=', updatedAtGte);
    if (updatedAtLt !== undefined) query = query.where('updated_at', '<', updatedAtLt);
    if (sandboxId !== undefined) query = query.where('sandbox_id', '=', sandboxId);
    return query;
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
