import { createIndexes, textColumns } from '@bosun/database';
import type { Kysely } from 'kysely';
import { type Dialect, type SchemaMigration, codePointText, createOwnedTable } from './migration.ts';

/**
 * The accounts at OpenID Connect issuers people sign in with: one row per (issuer, subject), the pair the issuer
 * guarantees stable and unique (an e-mail is neither), owned by the Bosun user it signs in. Compared by code point:
 * a subject is case-sensitive.
 */
export const oidcIdentities: SchemaMigration = {
  name: '0014_oidc_identities',
  async up(db: Kysely<unknown>, dialect: Dialect) {
    await createOwnedTable(db, 'oidc_identities')
      .addColumn('issuer', codePointText(dialect), (col) => col.notNull())
      .addColumn('subject', codePointText(dialect), (col) => col.notNull())
      .$call(textColumns('created_at'))
      .addUniqueConstraint('oidc_identities_issuer_subject', ['issuer', 'subject'])
      .execute();
    await createIndexes(db, 'oidc_identities', { oidc_identities_by_user: ['user_id'] });
  },
};
