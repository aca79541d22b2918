import type { Kysely } from 'kysely';
import type { SchemaMigration } from './migration.ts';

/**
 * What renews a sign-in's provider token that expires (a GitHub App's user token after 8 h, GitLab's after 2 h):
 * `refresh_sealed`, the refresh token the provider gave with it (sealed like the token, bound to its own row and
 * purpose); `expires_at` and `refresh_expires_at`, ISO times, null when the provider gave none (it never expires).
 * Tokens stored by hand have none of them.
 */
export const providerTokenRenewal: SchemaMigration = {
  name: '0017_provider_token_renewal',
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('provider_tokens').addColumn('refresh_sealed', 'text').execute();
    await db.schema.alterTable('provider_tokens').addColumn('expires_at', 'text').execute();
    await db.schema.alterTable('provider_tokens').addColumn('refresh_expires_at', 'text').execute();
  },
};
