import { expect, it } from 'vitest';
import { tokenHash } from '../../src/data/tokens.ts';
import { describeEachDatabase } from '../support/databases.ts';

describeEachDatabase('sessions and sign-in tokens', (each) => {
  it('redeems a sign-in token once, and stores only its hash', async () => {
    const { repositories, database } = await each.shared();
    const user = await repositories.users.create();
    const token = await repositories.sessions.createSignInToken(user.id, 60_000);
    const stored = await database.db.selectFrom('sign_in_tokens').selectAll().where('user_id', '=', user.id).execute();
    expect(stored.map((row) => row.token_hash)).toEqual([tokenHash(token)]);
    const redeemed = await Promise.all([repositories.sessions.redeem(token), repositories.sessions.redeem(token)]);
    expect(redeemed.sort()).toEqual([user.id, undefined]);
    expect(await repositories.sessions.redeem(token)).toBeUndefined();
  });

  it('does not redeem an expired sign-in token', async () => {
    const { repositories } = await each.shared();
    const user = await repositories.users.create();
    const token = await repositories.sessions.createSignInToken(user.id, -1);
    expect(await repositories.sessions.redeem(token)).toBeUndefined();
  });

  it('opens a session by its token until it expires or is revoked by its user', async () => {
    const { repositories } = await each.shared();
    const [alice, bob] = await Promise.all([repositories.users.create(), repositories.users.create()]);
    const { token, session } = await repositories.sessions.createSession(alice.id, 60_000);
    expect(await repositories.sessions.sessionUser(token)).toEqual({
      sessionId: session.id,
      userId: alice.id,
      expiresAt: session.expires_at,
    });
    const expired = await repositories.sessions.createSession(alice.id, -1);
    expect(await repositories.sessions.sessionUser(expired.token)).toBeUndefined();
    expect(await repositories.sessions.sessionUser('not-a-token')).toBeUndefined();
    expect(await repositories.sessions.revoke(bob.id, session.id)).toBe(false);
    expect(await repositories.sessions.sessionUser(token)).toBeDefined();
    expect(await repositories.sessions.revoke(alice.id, session.id)).toBe(true);
    expect(await repositories.sessions.sessionUser(token)).toBeUndefined();
  });

  it('revokes all sessions of one user only, and deletes expired rows', async () => {
    const { repositories, database } = await each.shared();
    const [alice, bob] = await Promise.all([repositories.users.create(), repositories.users.create()]);
    const a1 = await repositories.sessions.createSession(alice.id, 60_000);
    await repositories.sessions.createSession(alice.id, 60_000);
    const b1 = await repositories.sessions.createSession(bob.id, 60_000);
    await repositories.sessions.createSession(bob.id, -1);
    await repositories.sessions.createSignInToken(bob.id, -1);
    expect(await repositories.sessions.revokeAll(alice.id)).toBe(2);
    expect(await repositories.sessions.sessionUser(a1.token)).toBeUndefined();
    expect(await repositories.sessions.sessionUser(b1.token)).toMatchObject({ userId: bob.id });
    expect(await repositories.sessions.deleteExpired()).toBeGreaterThanOrEqual(2);
    const left = await database.db.selectFrom('sessions').select('id').where('user_id', '=', bob.id).execute();
    expect(left.map((row) => row.id)).toEqual([b1.session.id]);
  });
});
