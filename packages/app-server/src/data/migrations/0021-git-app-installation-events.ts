import { createIdTable, createIndexes, textColumns } from '@bosun/database';
import type { Kysely } from 'kysely';
import type { SchemaMigration } from './migration.ts';

/**
 * The events of the GitHub App's installations its webhook delivered (created, deleted, suspended; repositories
 * added or removed): one row per delivery (GitHub's `X-GitHub-Delivery`, so a delivery sent again is kept once).
 */
export const gitAppInstallationEvents: SchemaMigration = {
  name: '0021_git_app_installation_events',
  async up(db: Kysely<unknown>) {
    await createIdTable(db, 'git_app_installation_events')
      .$call(
        textColumns(
          'delivery_id',
          'event',
          'action',
          'installation_id',
          'account?',
          'repositories_added',
          'repositories_removed',
          'received_at',
        ),
      )
      .addUniqueConstraint('git_app_installation_events_delivery', ['delivery_id'])
      .execute();
    await createIndexes(db, 'git_app_installation_events', {
      git_app_installation_events_by_installation: ['installation_id', 'received_at'],
    });
  },
};
