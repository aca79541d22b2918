import type { Kysely } from 'kysely';
import type { SchemaMigration } from './migration.ts';

/**
 * `llm_model_at`: when, by the clock of the conversation's agent server (its ConversationInfo's `updated_at`), the
 * conversation had the `llm_model` the row names, as a switch of its LLM or the newest report set it: a report
 * older than that (sent before a switch, landing after it) no longer brings back the model it names. Null: no
 * ordered model yet (a row older than 0013, or reports without `updated_at`).
 */
export const conversationModelOrder: SchemaMigration = {
  name: '0013_conversation_model_order',
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('app_conversations').addColumn('llm_model_at', 'text').execute();
  },
};
