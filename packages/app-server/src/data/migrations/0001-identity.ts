import { type Kysely, sql } from 'kysely';
import type { SchemaMigration } from './migration.ts';

/** Users, the owner of an embedded install, organizations and their members, API keys, sessions, sign-in tokens. */
export const identity: SchemaMigration = {
  name: '0001_identity',
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('users')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('email', 'text')
      .addColumn('name', 'text')
      .addColumn('created_at', 'text', (col) => col.notNull())
      .execute();
    await db.schema.createIndex('users_by_email').unique().on('users').expression(sql`lower(email)`).execute();
    await db.schema
      .createTable('instance_owner')
      .addColumn('singleton', 'integer', (col) => col.primaryKey().check(sql`singleton = 1`))
      .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .execute();
    await db.schema
      .createTable('organizations')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .execute();
    await db.schema
      .createTable('memberships')
      .addColumn('org_id', 'text', (col) => col.notNull().references('organizations.id').onDelete('cascade'))
      .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('role', 'text', (col) => col.notNull().check(sql`role in ('owner', 'admin', 'member')`))
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addPrimaryKeyConstraint('memberships_pk', ['org_id', 'user_id'])
      .execute();
    await db.schema.createIndex('memberships_by_user').on('memberships').columns(['user_id', 'org_id']).execute();
    await db.schema
      .createTable('api_keys')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('org_id', 'text', (col) => col.references('organizations.id').onDelete('cascade'))
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('key_hash', 'text', (col) => col.notNull().unique())
      .addColumn('display_prefix', 'text', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('expires_at', 'text')
      .execute();
    await db.schema.createIndex('api_keys_by_user').on('api_keys').columns(['user_id', 'created_at']).execute();
    await db.schema.createIndex('api_keys_by_org').on('api_keys').column('org_id').execute();
    await db.schema
      .createTable('sessions')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('token_hash', 'text', (col) => col.notNull().unique())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('expires_at', 'text', (col) => col.notNull())
      .execute();
    await db.schema.createIndex('sessions_by_user').on('sessions').column('user_id').execute();
    await db.schema.createIndex('sessions_by_expiry').on('sessions').column('expires_at').execute();
    await db.schema
      .createTable('sign_in_tokens')
      .addColumn('token_hash', 'text', (col) => col.primaryKey())
      .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('expires_at', 'text', (col) => col.notNull())
      .execute();
    await db.schema.createIndex('sign_in_tokens_by_user').on('sign_in_tokens').column('user_id').execute();
    await db.schema.createIndex('sign_in_tokens_by_expiry').on('sign_in_tokens').column('expires_at').execute();
  },
};
