import type { Kysely } from 'kysely';
import type { SchemaMigration } from './migration.ts';

/**
 * The organization and user skills repositories a conversation's start looked for
 * (ConversationSkillRepository[] as JSON: each with the commit passed to its agent, or why it was skipped); null:
 * none recorded (every conversation so far).
 */
export const conversationSkillRepositories: SchemaMigration = {
  name: '0020_conversation_skill_repositories',
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('app_conversations').addColumn('skill_repositories', 'text').execute();
  },
};
