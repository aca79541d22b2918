import { expect, it } from 'vitest';
import { EmailTakenError, KeyRing, createRepositories, newSecretsKey } from '../../src/data/index.ts';
import { describeEachDatabase } from '../support/databases.ts';

describeEachDatabase('users', (each) => {
  it('creates users with UUIDs, gets them by id and email, and counts them', async () => {
    const { repositories } = await each.shared();
    const before = await repositories.users.count();
    const ada = await repositories.users.create({ email: `Ada-${Math.random()}@Example.com`, name: 'Ada' });
    const anonymous = await repositories.users.create();
    expect(ada.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(ada.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(await repositories.users.get(ada.id)).toEqual(ada);
    expect(await repositories.users.get(anonymous.id)).toEqual({ ...anonymous, email: null, name: null });
    expect(await repositories.users.byEmail((ada.email as string).toUpperCase())).toEqual(ada);
    expect(await repositories.users.get('00000000-0000-0000-0000-000000000000')).toBeUndefined();
    expect(await repositories.users.count()).toBe(before + 2);
  });

  it('refuses a second user with the same email, whatever its case', async () => {
    const { repositories } = await each.shared();
    const email = `grace-${Math.random()}@example.com`;
    await repositories.users.create({ email });
    await expect(repositories.users.create({ email: email.toUpperCase() })).rejects.toThrow(EmailTakenError);
  });

  it('creates exactly one instance owner even when asked twice at once', async () => {
    const database = await each.open();
    const users = createRepositories(database, new KeyRing(newSecretsKey())).users;
    expect(await users.owner()).toBeUndefined();
    const [first, second] = await Promise.all([users.ensureOwner({ name: 'one' }), users.ensureOwner({ name: 'two' })]);
    expect(first.user).toEqual(second.user);
    expect([first.created, second.created].filter(Boolean)).toHaveLength(1);
    expect(await users.owner()).toEqual(first.user);
    expect((await users.ensureOwner()).created).toBe(false);
  });

  // Two connections to one SQLite file in one process would block each other's thread; SQLite's case (a server and
  // `bosun api-key create`) is two processes, serialized by the file lock.
  if (each.dialect === 'postgres')
    it('creates one owner when two servers ask at once on a new database', async () => {
      const target = await each.target();
      const [one, two] = await Promise.all([each.open({ target }), each.open({ target })]);
      const ring = new KeyRing(newSecretsKey());
      const results = await Promise.all([
        createRepositories(one, ring).users.ensureOwner({ email: 'owner@example.com' }),
        createRepositories(two, ring).users.ensureOwner({ email: 'owner@example.com' }),
      ]);
      expect(results[0].user).toEqual(results[1].user);
      expect(await createRepositories(one, ring).users.count()).toBe(1);
    });
});
