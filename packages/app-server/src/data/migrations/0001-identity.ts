import { createIdTable, createIndexes, textColumns } from '@bosun/database';
import { type Kysely, sql } from 'kysely';
import { type SchemaMigration, createOwnedTable, userReference } from './migration.ts';

/** Users, the owner of an embedded install, organizations and their members, API keys, sessions, sign-in tokens. */
export const identity: SchemaMigration = {
  name: '0001_identity',
  async up(db: Kysely<unknown>) {
    await createIdTable(db, 'users')
      .$call(textColumns('email?', 'name?', 'created_at'))
      .execute();
    await db.schema.createIndex('users_by_email').unique().on('users').expression(sql`lower(email)`).execute();
    await db.schema
      .createTable('instance_owner')
      .addColumn('singleton', 'integer', (col) => col.primaryKey().check(sql`singleton = 1`))
      .addColumn('user_id', 'text', userReference)
      .execute();
    await createIdTable(db, 'organizations').$call(textColumns('name', 'created_at')).execute();
    await db.schema
      .createTable('memberships')
      .addColumn('org_id', 'text', (col) => col.notNull().references('organizations.id').onDelete('cascade'))
      .addColumn('user_id', 'text', userReference)
      .addColumn('role', 'text', (col) => col.notNull().check(sql`role in ('owner', 'admin', 'member')`))
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addPrimaryKeyConstraint('memberships_pk', ['org_id', 'user_id'])
      .execute();
    await createIndexes(db, 'memberships', { memberships_by_user: ['user_id', 'org_id'] });
    await createOwnedTable(db, 'api_keys')
      .addColumn('org_id', 'text', (col) => col.references('organizations.id').onDelete('cascade'))
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('key_hash', 'text', (col) => col.notNull().unique())
      .$call(textColumns('display_prefix', 'created_at', 'expires_at?'))
      .execute();
    await createIndexes(db, 'api_keys', { api_keys_by_user: ['user_id', 'created_at'], api_keys_by_org: ['org_id'] });
    await createOwnedTable(db, 'sessions')
      .addColumn('token_hash', 'text', (col) => col.notNull().unique())
      .$call(textColumns('created_at', 'expires_at'))
      .execute();
    await createIndexes(db, 'sessions', { sessions_by_user: ['user_id'], sessions_by_expiry: ['expires_at'] });
    await db.schema
      .createTable('sign_in_tokens')
      .addColumn('token_hash', 'text', (col) => col.primaryKey())
      .addColumn('user_id', 'text', userReference)
      .$call(textColumns('created_at', 'expires_at'))
      .execute();
    await createIndexes(db, 'sign_in_tokens', {
      sign_in_tokens_by_user: ['user_id'],
      sign_in_tokens_by_expiry: ['expires_at'],
    });
  },
};
