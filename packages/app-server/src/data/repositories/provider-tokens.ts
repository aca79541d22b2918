import type { Kysely } from 'kysely';
import { bindings } from '../sealed-rows.ts';
import type { KeyRing } from '../secret-cipher.ts';
import type { Tables } from '../tables.ts';
import { nowIso } from '../tokens.ts';
import { OwnedRows } from './owned-rows.ts';

/** A Git provider a user connected, without the token. */
export interface ProviderTokenInfo {
  provider: string;
  host: string | null;
}

export interface ProviderToken {
  token: string;
  host: string | null;
}

const tokensOf = (db: Kysely<Tables>) => new OwnedRows(db, 'provider_tokens', 'provider');

/** Each user's Git provider tokens (one per provider), sealed and bound to their row. */
export class ProviderTokensRepository {
  constructor(
    private readonly db: Kysely<Tables>,
    private readonly keyRing: KeyRing,
  ) {}

  /** Stores (or replaces) the user's token for the provider, as given by hand. */
  async set(userId: string, provider: string, input: { token: string; host?: string | null }): Promise<void> {
    await this.upsert(userId, provider, { ...input, source: null });
  }

  /**
   * Stores the token a sign-in brought (`source`: its login identity) unless the user has a token for the provider
   * that another source stored (by hand: null): that one is kept. True when stored.
   */
  async setFromSignIn(
    userId: string,
    provider: string,
    input: { token: string; host: string | null; source: string },
  ): Promise<boolean> {
    return this.upsert(userId, provider, input, input.source);
  }

  private async upsert(
    userId: string,
    provider: string,
    input: { token: string; host?: string | null; source: string | null },
    onlyOverSource?: string,
  ): Promise<boolean> {
    const { keyId, sealed } = this.keyRing.seal(bindings.provider_tokens(userId, provider), input.token);
    const now = nowIso();
    const { source } = input;
    const host = input.host ?? null;
    const [result] = await this.db
      .insertInto('provider_tokens')
      .values({ user_id: userId, provider, host, source, key_id: keyId, sealed, created_at: now, updated_at: now })
      .onConflict((oc) => {
        const update = oc
          .columns(['user_id', 'provider'])
          .doUpdateSet({ host, source, key_id: keyId, sealed, updated_at: now });
        return onlyOverSource === undefined ? update : update.where('provider_tokens.source', '=', onlyOverSource);
      })
      .execute();
    return (result?.numInsertedOrUpdatedRows ?? 0n) > 0n;
  }

  /** The providers the user connected, by name. */
  async list(userId: string): Promise<ProviderTokenInfo[]> {
    return this.db
      .selectFrom('provider_tokens')
      .select(['provider', 'host'])
      .where('user_id', '=', userId)
      .orderBy('provider')
      .execute();
  }

  /** Forgets the user's token for the provider; false when there was none. */
  delete(userId: string, provider: string): Promise<boolean> {
    return tokensOf(this.db).delete(userId, provider);
  }

  /** The user's token for the provider, in clear, or undefined. */
  async token(userId: string, provider: string): Promise<ProviderToken | undefined> {
    const row = await tokensOf(this.db).pick(userId, provider, ['host', 'sealed']);
    if (!row) return undefined;
    return { token: this.keyRing.open(bindings.provider_tokens(userId, provider), row.sealed), host: row.host };
  }
}
