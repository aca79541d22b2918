import type { Kysely } from 'kysely';
import { SecretsKeyError } from './errors.ts';
import type { KeyRing } from './secret-cipher.ts';
import { sealBinding } from './secret-cipher.ts';
import type { SealedTable, Tables } from './tables.ts';

/** What each sealed row is bound to (its table, user and key within the user's rows). */
export const bindings = {
  user_settings: (userId: string) => sealBinding('user_settings', userId),
  custom_secrets: (userId: string, secretId: string) => sealBinding('custom_secrets', userId, secretId),
  provider_tokens: (userId: string, provider: string) => sealBinding('provider_tokens', userId, provider),
  /** A provider token's refresh token (sealed with the same key as the token, in `refresh_sealed`). */
  provider_token_refresh: (userId: string, provider: string) =>
    `${sealBinding('provider_tokens', userId, provider)}:refresh`,
  app_conversation_start_tasks: (userId: string, taskId: string) =>
    sealBinding('app_conversation_start_tasks', userId, taskId),
  llm_profiles: (userId: string, profileId: string) => sealBinding('llm_profiles', userId, profileId),
} as const;

interface SealedRow {
  user_id: string;
  row_key: string;
  key_id: string;
  sealed: string;
  /** provider_tokens only: the refresh token, sealed with the same key. */
  refresh_sealed?: string | null;
}

/** The columns that, with the user, identify a row of each sealed table. */
const ROW_KEY = {
  user_settings: 'user_id',
  custom_secrets: 'id',
  provider_tokens: 'provider',
  app_conversation_start_tasks: 'id',
  llm_profiles: 'id',
} as const;

const bindingOf = (table: SealedTable, row: SealedRow) =>
  table === 'user_settings' ? bindings.user_settings(row.user_id) : sealBinding(table, row.user_id, row.row_key);

/**
 * Re-seals with the current key every value sealed with a previous one (a rotation), after checking that the
 * ring holds every key the data was sealed with, before changing anything. The `key_id` index makes this cost
 * two index probes per table when nothing is stale. Returns how many values were sealed again.
 */
export async function resealStale(db: Kysely<Tables>, keyRing: KeyRing): Promise<number> {
  const tables = Object.keys(ROW_KEY) as SealedTable[];
  const stale = await Promise.all(tables.map((table) => staleRows(db, table, keyRing.currentKeyId)));
  const unknown = new Set(
    stale
      .flat()
      .map((row) => row.key_id)
      .filter((keyId) => !keyRing.has(keyId)),
  );
  if (unknown.size > 0) {
    throw new SecretsKeyError(
      [
        `the database holds secrets sealed with key ${[...unknown].join(', ')}, but ${keyRing.source} is key`,
        `${keyRing.currentKeyId}. Start with the key they were sealed with; to change keys, give the old one as a`,
        'previous secrets key once (its values are then sealed again with the new key).',
      ].join(' '),
    );
  }
  if (stale.every((rows) => rows.length === 0)) return 0;
  await db.transaction().execute(async (trx) => {
    for (const [index, table] of tables.entries()) {
      for (const row of stale[index] as SealedRow[]) {
        const binding = bindingOf(table, row);
        const resealed = keyRing.seal(binding, keyRing.open(binding, row.sealed));
        const refresh = row.refresh_sealed ? bindings.provider_token_refresh(row.user_id, row.row_key) : undefined;
        const refreshSealed = refresh && keyRing.seal(refresh, keyRing.open(refresh, row.refresh_sealed as string));
        await trx
          .updateTable(table)
          .set({
            key_id: resealed.keyId,
            sealed: resealed.sealed,
            ...(refreshSealed ? { refresh_sealed: refreshSealed.sealed } : {}),
          })
          .where('user_id', '=', row.user_id)
          .where(ROW_KEY[table], '=', row.row_key)
          .execute();
      }
    }
  });
  return stale.flat().length;
}

async function staleRows(db: Kysely<Tables>, table: SealedTable, currentKeyId: string): Promise<SealedRow[]> {
  return db
    .selectFrom(table)
    .select(['user_id', `${ROW_KEY[table]} as row_key`, 'key_id', 'sealed'])
    .$if(table === 'provider_tokens', (query) => query.select('refresh_sealed'))
    .where((eb) => eb.or([eb('key_id', '<', currentKeyId), eb('key_id', '>', currentKeyId)]))
    .execute() as Promise<SealedRow[]>;
}
