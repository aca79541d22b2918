import type { Kysely } from 'kysely';
import { v7 as uuidv7 } from 'uuid';
import type { Tables } from '../tables.ts';
import { isoAfter, nowIso, randomBase62, tokenHash } from '../tokens.ts';
import { OwnedRows } from './owned-rows.ts';

export interface Session {
  id: string;
  user_id: string;
  created_at: string;
  expires_at: string;
}

/** Whose session a token opens. */
export interface SessionIdentity {
  sessionId: string;
  userId: string;
  expiresAt: string;
}

const sessionsOf = (db: Kysely<Tables>) => new OwnedRows(db, 'sessions', 'id');

/** Browser sessions and the one-time sign-in tokens that open them; only the tokens' SHA-256 is stored. */
export class SessionsRepository {
  constructor(private readonly db: Kysely<Tables>) {}

  /** A one-time sign-in token for the user, valid `ttlMs` milliseconds (returned here only). */
  async createSignInToken(userId: string, ttlMs: number): Promise<string> {
    const token = randomBase62();
    await this.db
      .insertInto('sign_in_tokens')
      .values({ token_hash: tokenHash(token), user_id: userId, created_at: nowIso(), expires_at: isoAfter(ttlMs) })
      .execute();
    return token;
  }

  /** The user a sign-in token is for, once: the token is consumed (one statement), expired or not. */
  async redeem(token: string): Promise<string | undefined> {
    const row = await this.db
      .deleteFrom('sign_in_tokens')
      .where('token_hash', '=', tokenHash(token))
      .returning(['user_id', 'expires_at'])
      .executeTakeFirst();
    return row && row.expires_at > nowIso() ? row.user_id : undefined;
  }

  /** A new session for the user, valid `ttlMs` milliseconds; `token` is returned here only. */
  async createSession(userId: string, ttlMs: number): Promise<{ token: string; session: Session }> {
    const token = randomBase62();
    const session: Session = { id: uuidv7(), user_id: userId, created_at: nowIso(), expires_at: isoAfter(ttlMs) };
    await this.db
      .insertInto('sessions')
      .values({ ...session, token_hash: tokenHash(token) })
      .execute();
    return { token, session };
  }

  /** Whose session a token opens; undefined when unknown, revoked or expired. */
  async sessionUser(token: string): Promise<SessionIdentity | undefined> {
    const row = await this.db
      .selectFrom('sessions')
      .select(['id', 'user_id', 'expires_at'])
      .where('token_hash', '=', tokenHash(token))
      .executeTakeFirst();
    if (!row || row.expires_at <= nowIso()) return undefined;
    return { sessionId: row.id, userId: row.user_id, expiresAt: row.expires_at };
  }

  /** Ends one of the user's sessions; false when the user has no session with this id. */
  revoke(userId: string, sessionId: string): Promise<boolean> {
    return sessionsOf(this.db).delete(userId, sessionId);
  }

  /** Ends every session of the user (sign out everywhere); how many there were. */
  async revokeAll(userId: string): Promise<number> {
    const result = await this.db.deleteFrom('sessions').where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Deletes expired sessions and sign-in tokens (housekeeping); how many rows went. */
  async deleteExpired(): Promise<number> {
    const now = nowIso();
    const sessions = await this.db.deleteFrom('sessions').where('expires_at', '<=', now).executeTakeFirst();
    const tokens = await this.db.deleteFrom('sign_in_tokens').where('expires_at', '<=', now).executeTakeFirst();
    return Number(sessions.numDeletedRows) + Number(tokens.numDeletedRows);
  }
}
