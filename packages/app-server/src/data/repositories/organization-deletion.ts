import { type Kysely, type Selectable, type Transaction, sql } from 'kysely';
import type { Dialect } from '../migrations/index.ts';
import type { OrganizationsTable, Role, Tables } from '../tables.ts';

/**
 * Every table with an `org_id` column and what deleting the organization does to its rows: `remove` them (they
 * are the organization's), or `detach` them (they are a user's, made while acting in it). A new table with an
 * `org_id` must be listed here (test/data/organization-deletion.test.ts compares this with the schema).
 */
export const ORG_SCOPED_TABLES = {
  memberships: 'remove',
  api_keys: 'remove',
  marketplaces: 'remove',
  marketplace_versions: 'remove',
  app_conversations: 'detach',
} as const satisfies Partial<Record<keyof Tables, 'remove' | 'detach'>>;

export interface OrgDeletionRecord {
  organization: Selectable<OrganizationsTable>;
  removed: { memberships: number; api_keys: number; marketplaces: number };
  kept: { conversations: number };
}

/** The organization deleted, or (nothing deleted) the caller's role in it: undefined when not a member. */
export type OrgDeletionOutcome = { deleted: OrgDeletionRecord } | { refused: Role | undefined };

/**
 * Deletes the organization if `userId` is one of its owners, checked inside the transaction that deletes it (so a
 * demotion committed first refuses the deletion): its memberships, bound API keys and marketplaces go with it, its
 * conversations stay their users' in no organization. On PostgreSQL the organization's row is locked first, as
 * membership changes lock it.
 */
export async function deleteOrganization(
  db: Kysely<Tables>,
  dialect: Dialect,
  orgId: string,
  userId: string,
): Promise<OrgDeletionOutcome> {
  return db.transaction().execute(async (trx) => {
    if (dialect === 'postgres') await sql`select id from organizations where id = ${orgId} for update`.execute(trx);
    const organization = await trx.selectFrom('organizations').selectAll().where('id', '=', orgId).executeTakeFirst();
    const membership = await trx
      .selectFrom('memberships')
      .select('role')
      .where('org_id', '=', orgId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!organization || membership?.role !== 'owner') return { refused: membership?.role };
    const detached = await trx
      .updateTable('app_conversations')
      .set({ org_id: null })
      .where('org_id', '=', orgId)
      .executeTakeFirst();
    const removed = {
      api_keys: await removeRows(trx, 'api_keys', orgId),
      marketplaces: await removeRows(trx, 'marketplaces', orgId),
      memberships: await removeRows(trx, 'memberships', orgId),
    };
    await removeRows(trx, 'marketplace_versions', orgId);
    await trx.deleteFrom('organizations').where('id', '=', orgId).execute();
    return { deleted: { organization, removed, kept: { conversations: Number(detached.numUpdatedRows) } } };
  });
}

type RemovedTable = {
  [T in keyof typeof ORG_SCOPED_TABLES]: (typeof ORG_SCOPED_TABLES)[T] extends 'remove' ? T : never;
}[keyof typeof ORG_SCOPED_TABLES];

async function removeRows(trx: Transaction<Tables>, table: RemovedTable, orgId: string): Promise<number> {
  const result = await trx.deleteFrom(table).where('org_id', '=', orgId).executeTakeFirst();
  return Number(result.numDeletedRows);
}
