import type { Kysely } from 'kysely';
import type { SchemaMigration } from './migration.ts';

/**
 * What the start request said of a conversation, kept to show it as OpenHands does: `conversation_trigger`, its
 * `trigger` (`gui`, `suggested_task`, `resolver`...; null when not said), and `pr_number`, the pull requests it
 * works on (a JSON list of numbers; null: none, as for every conversation so far).
 */
export const conversationTrigger: SchemaMigration = {
  name: '0019_conversation_trigger',
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('app_conversations').addColumn('conversation_trigger', 'text').execute();
    await db.schema.alterTable('app_conversations').addColumn('pr_number', 'text').execute();
  },
};
