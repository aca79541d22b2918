import { expect, it } from 'vitest';
import { InvalidPageIdError, SecretNameTakenError } from '../../src/data/index.ts';
import { describeEachDatabase } from '../support/databases.ts';

describeEachDatabase('custom secrets', (each) => {
  it('creates a secret, refuses a second by the same name, and lists it without its value', async () => {
    const { repositories, database } = await each.shared();
    const user = await repositories.users.create();
    const info = await repositories.secrets.create(user.id, {
      name: 'GITHUB_TOKEN',
      value: 'ghp_clear',
      description: 'd',
    });
    expect(info).toEqual({
      id: expect.any(String),
      name: 'GITHUB_TOKEN',
      description: 'd',
      created_at: expect.any(String),
      updated_at: info.created_at,
    });
    await expect(repositories.secrets.create(user.id, { name: 'GITHUB_TOKEN', value: 'other' })).rejects.toThrow(
      SecretNameTakenError,
    );
    expect(await repositories.secrets.search(user.id, { limit: 10 })).toEqual({ items: [info], next_page_id: null });
    expect(await repositories.secrets.get(user.id, 'GITHUB_TOKEN')).toEqual(info);
    const rows = await database.db.selectFrom('custom_secrets').selectAll().where('user_id', '=', user.id).execute();
    expect(JSON.stringify(rows)).not.toContain('ghp_clear');
    expect(await repositories.secrets.value(user.id, 'GITHUB_TOKEN')).toBe('ghp_clear');
  });

  it('searches by a case-insensitive part of the name, in pages, wildcards taken literally', async () => {
    const { repositories } = await each.shared();
    const user = await repositories.users.create();
    const names = ['b_KEY', 'A_KEY', 'aKEY', 'C_key', 'B%KEY', 'OTHER'];
    for (const name of names) await repositories.secrets.create(user.id, { name, value: name });
    const namesOf = (page: { items: { name: string }[] }) => page.items.map((item) => item.name);
    const first = await repositories.secrets.search(user.id, { limit: 2 });
    expect(namesOf(first)).toEqual(['A_KEY', 'B%KEY']);
    const second = await repositories.secrets.search(user.id, { limit: 2, pageId: first.next_page_id as string });
    expect(namesOf(second)).toEqual(['C_key', 'OTHER']);
    const third = await repositories.secrets.search(user.id, { limit: 2, pageId: second.next_page_id as string });
    expect(namesOf(third)).toEqual(['aKEY', 'b_KEY']);
    expect(third.next_page_id).toBeNull();
    expect(namesOf(await repositories.secrets.search(user.id, { limit: 10, nameContains: '_key' }))).toEqual([
      'A_KEY',
      'C_key',
      'b_KEY',
    ]);
    expect(namesOf(await repositories.secrets.search(user.id, { limit: 10, nameContains: '%' }))).toEqual(['B%KEY']);
    await expect(repositories.secrets.search(user.id, { limit: 2, pageId: 'garbage' })).rejects.toThrow(
      InvalidPageIdError,
    );
  });

  it('updates the description and the value separately, and deletes', async () => {
    const { repositories } = await each.shared();
    const user = await repositories.users.create();
    const info = await repositories.secrets.create(user.id, { name: 'API', value: 'v1', description: 'first' });
    expect(await repositories.secrets.update(user.id, 'API', { description: 'second' })).toBe(true);
    expect(await repositories.secrets.value(user.id, 'API')).toBe('v1');
    expect(await repositories.secrets.update(user.id, 'API', { value: 'v2' })).toBe(true);
    expect(await repositories.secrets.get(user.id, 'API')).toMatchObject({ id: info.id, description: 'second' });
    expect(await repositories.secrets.update(user.id, 'API', { description: null })).toBe(true);
    expect(await repositories.secrets.get(user.id, 'API')).toMatchObject({ description: null });
    expect(await repositories.secrets.values(user.id)).toEqual({ API: 'v2' });
    expect(await repositories.secrets.update(user.id, 'MISSING', { value: 'x' })).toBe(false);
    expect(await repositories.secrets.delete(user.id, 'API')).toBe(true);
    expect(await repositories.secrets.delete(user.id, 'API')).toBe(false);
    expect(await repositories.secrets.values(user.id)).toEqual({});
  });

  it("one user never sees nor changes another's secrets, and both may use the same name", async () => {
    const { repositories } = await each.shared();
    const [alice, bob] = await Promise.all([repositories.users.create(), repositories.users.create()]);
    await repositories.secrets.create(alice.id, { name: 'TOKEN', value: 'alice' });
    expect(await repositories.secrets.search(bob.id, { limit: 10 })).toEqual({ items: [], next_page_id: null });
    expect(await repositories.secrets.value(bob.id, 'TOKEN')).toBeUndefined();
    expect(await repositories.secrets.update(bob.id, 'TOKEN', { value: 'bob' })).toBe(false);
    expect(await repositories.secrets.delete(bob.id, 'TOKEN')).toBe(false);
    await repositories.secrets.create(bob.id, { name: 'TOKEN', value: 'bob' });
    expect(await repositories.secrets.values(alice.id)).toEqual({ TOKEN: 'alice' });
    expect(await repositories.secrets.values(bob.id)).toEqual({ TOKEN: 'bob' });
  });
});

describeEachDatabase('Git provider tokens', (each) => {
  it('sets, replaces, lists without tokens, reads and deletes, per user', async () => {
    const { repositories, database } = await each.shared();
    const [alice, bob] = await Promise.all([repositories.users.create(), repositories.users.create()]);
    await repositories.providerTokens.set(alice.id, 'github', { token: 'ghp_first' });
    await repositories.providerTokens.set(alice.id, 'gitlab', { token: 'glpat', host: 'gitlab.example.com' });
    await repositories.providerTokens.set(alice.id, 'github', { token: 'ghp_second', host: 'github.example.com' });
    expect(await repositories.providerTokens.list(alice.id)).toEqual([
      { provider: 'github', host: 'github.example.com' },
      { provider: 'gitlab', host: 'gitlab.example.com' },
    ]);
    expect(await repositories.providerTokens.token(alice.id, 'github')).toEqual({
      token: 'ghp_second',
      host: 'github.example.com',
    });
    const rows = await database.db.selectFrom('provider_tokens').selectAll().where('user_id', '=', alice.id).execute();
    expect(JSON.stringify(rows)).not.toMatch(/ghp_|glpat/);
    expect(await repositories.providerTokens.list(bob.id)).toEqual([]);
    expect(await repositories.providerTokens.token(bob.id, 'github')).toBeUndefined();
    expect(await repositories.providerTokens.delete(bob.id, 'github')).toBe(false);
    expect(await repositories.providerTokens.delete(alice.id, 'github')).toBe(true);
    expect(await repositories.providerTokens.token(alice.id, 'github')).toBeUndefined();
    expect(await repositories.providerTokens.list(alice.id)).toEqual([
      { provider: 'gitlab', host: 'gitlab.example.com' },
    ]);
  });
});
