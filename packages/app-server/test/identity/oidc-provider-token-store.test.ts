import { expect, it } from 'vitest';
import { describeEachDatabase } from '../support/databases.ts';

describeEachDatabase('Git provider tokens a sign-in brings', (each) => {
  it('stores a sign-in’s token, replaced by the same login identity only, never over one stored by hand', async () => {
    const { repositories, database } = await each.shared();
    const { providerTokens } = repositories;
    const { id } = await repositories.users.create({ email: `u-${crypto.randomUUID()}@example.test`, name: 'U' });
    const fromAda = { host: null, source: 'sign-in:ada' };
    expect(await providerTokens.setFromSignIn(id, 'github', { ...fromAda, token: 'from-sign-in-1' })).toBe(true);
    expect(await providerTokens.setFromSignIn(id, 'github', { ...fromAda, token: 'from-sign-in-2' })).toBe(true);
    expect(await providerTokens.token(id, 'github')).toEqual({ token: 'from-sign-in-2', host: null });
    // Sealed at rest, with who stored it.
    const row = await database.db
      .selectFrom('provider_tokens')
      .select(['sealed', 'source'])
      .where('user_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ sealed: expect.not.stringContaining('from-sign-in'), source: 'sign-in:ada' });
    // Another login identity of the same user does not take it over.
    const other = { token: 'from-another', host: 'ghe.example.test', source: 'sign-in:grace' };
    expect(await providerTokens.setFromSignIn(id, 'github', other)).toBe(false);
    expect(await providerTokens.token(id, 'github')).toEqual({ token: 'from-sign-in-2', host: null });
    // A token stored by hand replaces it, and no sign-in replaces that one.
    await providerTokens.set(id, 'github', { token: 'by-hand', host: null });
    const byHand = database.db.selectFrom('provider_tokens').select('source').where('user_id', '=', id);
    expect(await byHand.executeTakeFirstOrThrow()).toEqual({ source: null });
    expect(await providerTokens.setFromSignIn(id, 'github', { ...fromAda, token: 'from-sign-in-3' })).toBe(false);
    expect(await providerTokens.token(id, 'github')).toEqual({ token: 'by-hand', host: null });
    // Once the person deletes it, the next sign-in stores its own again.
    await providerTokens.delete(id, 'github');
    expect(await providerTokens.setFromSignIn(id, 'github', { ...fromAda, token: 'from-sign-in-4' })).toBe(true);
    expect(await providerTokens.token(id, 'github')).toEqual({ token: 'from-sign-in-4', host: null });
    expect(await providerTokens.list(id)).toEqual([{ provider: 'github', host: null }]);
  });
});
