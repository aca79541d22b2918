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

/** How long a token a provider gave lasts, and what renews it (all absent: it never expires). */
export interface TokenLifetime {
  /** ISO time the token expires at; null: never (or not said). */
  expiresAt?: string | null;
  refreshToken?: string | null;
  refreshExpiresAt?: string | null;
}

/** A token as a renewal reads it: what renews it, and the version of the row it is (compared when replacing it). */
export interface StoredProviderToken extends ProviderToken {
  version: string;
  /** Null: stored by hand (never renewed). */
  source: string | null;
  expiresAt: string | null;
  refresh: { token: string; expiresAt: string | null } | null;
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
    input: { token: string; host: string | null; source: string } & TokenLifetime,
  ): Promise<boolean> {
    return this.upsert(userId, provider, input, input.source);
  }

  private async upsert(
    userId: string,
    provider: string,
    input: { token: string; host?: string | null; source: string | null } & TokenLifetime,
    onlyOverSource?: string,
  ): Promise<boolean> {
    const now = nowIso();
    const { source } = input;
    const host = input.host ?? null;
    const values = { host, source, ...this.sealedColumns(userId, provider, input), updated_at: now };
    const [result] = await this.db
      .insertInto('provider_tokens')
      .values({ user_id: userId, provider, ...values, created_at: now })
      .onConflict((oc) => {
        const update = oc.columns(['user_id', 'provider']).doUpdateSet(values);
        return onlyOverSource === undefined ? update : update.where('provider_tokens.source', '=', onlyOverSource);
      })
      .execute();
    return (result?.numInsertedOrUpdatedRows ?? 0n) > 0n;
  }

  /** The token and its refresh token sealed (the refresh token bound apart), and when they expire. */
  private sealedColumns(userId: string, provider: string, input: { token: string } & TokenLifetime) {
    const { keyId, sealed } = this.keyRing.seal(bindings.provider_tokens(userId, provider), input.token);
    const refresh = input.refreshToken
      ? this.keyRing.seal(bindings.provider_token_refresh(userId, provider), input.refreshToken)
      : null;
    return {
      key_id: keyId,
      sealed,
      refresh_sealed: refresh?.sealed ?? null,
      expires_at: input.expiresAt ?? null,
      refresh_expires_at: refresh ? (input.refreshExpiresAt ?? null) : null,
    };
  }

  /** The user's token for the provider with what renews it, or undefined (see `renewed`). */
  async stored(userId: string, provider: string): Promise<StoredProviderToken | undefined> {
    const row = await tokensOf(this.db).get(userId, provider);
    if (!row) return undefined;
    let refresh: StoredProviderToken['refresh'] = null;
    try {
      if (row.refresh_sealed) {
        const token = this.keyRing.open(bindings.provider_token_refresh(userId, provider), row.refresh_sealed);
        refresh = { token, expiresAt: row.refresh_expires_at };
      }
    } catch {
      // Sealed with a key no longer configured: as good as none, the person signs in again.
    }
    return {
      token: this.keyRing.open(bindings.provider_tokens(userId, provider), row.sealed),
      host: row.host,
      version: row.sealed,
      source: row.source,
      expiresAt: row.expires_at,
      refresh,
    };
  }

  /**
   * Replaces the sign-in token `version` (read by `stored`) with its renewal, in one conditional update: false,
   * and nothing changed, when the row is no longer that version (renewed meanwhile, stored again by hand, deleted).
   */
  async renewed(userId: string, provider: string, version: string, next: { token: string } & TokenLifetime) {
    const result = await this.db
      .updateTable('provider_tokens')
      .set({ ...this.sealedColumns(userId, provider, next), updated_at: nowIso() })
      .where('user_id', '=', userId)
      .where('provider', '=', provider)
      .where('sealed', '=', version)
      .where('source', 'is not', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Forgets the refresh token of version `version` (the provider refused it): it is never sent again. */
  async refreshRefused(userId: string, provider: string, version: string): Promise<void> {
    await this.db
      .updateTable('provider_tokens')
      .set({ refresh_sealed: null, refresh_expires_at: null })
      .where('user_id', '=', userId)
      .where('provider', '=', provider)
      .where('sealed', '=', version)
      .execute();
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
