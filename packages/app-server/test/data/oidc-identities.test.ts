import { expect, it } from 'vitest';
import { EmailTakenError } from '../../src/data/errors.ts';
import { describeEachDatabase } from '../support/databases.ts';

const ISSUER = 'https://auth.example.com/realms/bosun';

describeEachDatabase('OpenID Connect identities', (each) => {
  it('makes a user for an account once, then finds it by (issuer, subject) only', async () => {
    const { repositories } = await each.shared();
    const account = { issuer: ISSUER, subject: `sub-${crypto.randomUUID()}` };
    expect(await repositories.oidcIdentities.userOf(account)).toBeUndefined();
    const made = await repositories.oidcIdentities.createUser(account, { email: null, name: 'Ada' });
    expect(made.name).toBe('Ada');
    expect((await repositories.oidcIdentities.userOf(account))?.id).toBe(made.id);
    expect(
      await repositories.oidcIdentities.userOf({ ...account, issuer: 'https://other.example.com' }),
    ).toBeUndefined();
    expect(await repositories.oidcIdentities.userOf({ ...account, subject: account.subject.toUpperCase() })).toBe(
      undefined,
    );
    expect(await repositories.oidcIdentities.accountsOf(made.id)).toEqual([account]);
  });

  it('concurrent first sign-ins of one account make one user', async () => {
    const { repositories } = await each.shared();
    const account = { issuer: ISSUER, subject: `sub-${crypto.randomUUID()}` };
    const users = await Promise.all([1, 2, 3].map(() => repositories.oidcIdentities.createUser(account, {})));
    expect(new Set(users.map((user) => user.id)).size).toBe(1);
    const count = await repositories.users.count();
    expect(await repositories.oidcIdentities.createUser(account, {})).toEqual(users[0]);
    expect(await repositories.users.count()).toBe(count);
  });

  it('refuses a new user whose e-mail is taken, and leaves no user behind', async () => {
    const { repositories } = await each.shared();
    const email = `taken-${crypto.randomUUID()}@example.test`;
    await repositories.users.create({ email });
    const count = await repositories.users.count();
    const account = { issuer: ISSUER, subject: `sub-${crypto.randomUUID()}` };
    await expect(
      repositories.oidcIdentities.createUser(account, { email: email.toUpperCase() }),
    ).rejects.toBeInstanceOf(EmailTakenError);
    expect(await repositories.users.count()).toBe(count);
    expect(await repositories.oidcIdentities.userOf(account)).toBeUndefined();
  });

  it('links an account to an existing user once: a second link keeps the first user', async () => {
    const { repositories } = await each.shared();
    const [alice, bob] = await Promise.all([repositories.users.create(), repositories.users.create()]);
    const account = { issuer: ISSUER, subject: `sub-${crypto.randomUUID()}` };
    expect((await repositories.oidcIdentities.link(alice.id, account)).id).toBe(alice.id);
    expect((await repositories.oidcIdentities.link(bob.id, account)).id).toBe(alice.id);
    expect(await repositories.oidcIdentities.accountsOf(bob.id)).toEqual([]);
  });

  it('deleting the user deletes their accounts', async () => {
    const { repositories, database } = await each.shared();
    const account = { issuer: ISSUER, subject: `sub-${crypto.randomUUID()}` };
    const user = await repositories.oidcIdentities.createUser(account, {});
    await database.db.deleteFrom('users').where('id', '=', user.id).execute();
    expect(await repositories.oidcIdentities.userOf(account)).toBeUndefined();
    expect(
      await database.db.selectFrom('oidc_identities').selectAll().where('user_id', '=', user.id).execute(),
    ).toEqual([]);
  });
});
