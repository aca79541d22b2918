import type { Kysely } from 'kysely';
import type { SchemaMigration } from './migration.ts';

/**
 * `provider_tokens.source`: who stored the token. Null: the person, by hand (and every row older than 0015); else
 * the sign-in that brought it (a digest of the issuer, the account's subject and the identity provider). A sign-in
 * replaces only a token its own login identity stored: never one the person chose by hand.
 */
export const providerTokenSource: SchemaMigration = {
  name: '0015_provider_token_source',
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('provider_tokens').addColumn('source', 'text').execute();
  },
};
