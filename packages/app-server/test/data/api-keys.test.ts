import { expect, it } from 'vitest';
import { API_KEY_PREFIX } from '../../src/data/index.ts';
import { tokenHash } from '../../src/data/tokens.ts';
import { describeEachDatabase } from '../support/databases.ts';

describeEachDatabase('API keys', (each) => {
  it('returns a new key once and stores only its SHA-256 and a display prefix', async () => {
    const { repositories, database } = await each.shared();
    const user = await repositories.users.create();
    const { key, record } = await repositories.apiKeys.create({ userId: user.id, name: 'ci' });
    expect(key).toMatch(/^sk-bosun-[0-9A-Za-z]{43}$/);
    expect(record).toEqual({
      id: expect.any(String),
      name: 'ci',
      org_id: null,
      display_prefix: key.slice(0, API_KEY_PREFIX.length + 4),
      created_at: expect.any(String),
      expires_at: null,
    });
    const stored = await database.db.selectFrom('api_keys').selectAll().where('id', '=', record.id).executeTakeFirst();
    expect(stored?.key_hash).toBe(tokenHash(key));
    expect(JSON.stringify(stored)).not.toContain(key.slice(API_KEY_PREFIX.length + 4));
    expect(await repositories.apiKeys.list(user.id)).toEqual([record]);
  });

  it('authenticates a key as its user and organization, and nothing else', async () => {
    const { repositories } = await each.shared();
    const user = await repositories.users.create();
    const org = await repositories.organizations.create({ name: 'o', ownerUserId: user.id });
    const plain = await repositories.apiKeys.create({ userId: user.id, name: 'plain' });
    const bound = await repositories.apiKeys.create({ userId: user.id, name: 'bound', orgId: org.id });
    expect(await repositories.apiKeys.authenticate(plain.key)).toEqual({ keyId: plain.record.id, userId: user.id });
    expect(await repositories.apiKeys.authenticate(bound.key)).toEqual({
      keyId: bound.record.id,
      userId: user.id,
      orgId: org.id,
    });
    // One character changed (the last one, to another: a fixed 'x' was the key itself once in 62 runs).
    const changed = `${plain.key.slice(0, -1)}${plain.key.endsWith('x') ? 'y' : 'x'}`;
    expect(await repositories.apiKeys.authenticate(changed)).toBeUndefined();
    expect(await repositories.apiKeys.authenticate(plain.key.slice(API_KEY_PREFIX.length))).toBeUndefined();
    expect(await repositories.apiKeys.authenticate('')).toBeUndefined();
  });

  it('rejects an expired key and accepts one that has not expired yet', async () => {
    const { repositories } = await each.shared();
    const user = await repositories.users.create();
    const expired = await repositories.apiKeys.create({
      userId: user.id,
      name: 'old',
      expiresAt: new Date(Date.now() - 1).toISOString(),
    });
    const valid = await repositories.apiKeys.create({
      userId: user.id,
      name: 'new',
      expiresAt: new Date(Date.now() + 60_000).toISOString(),
    });
    expect(await repositories.apiKeys.authenticate(expired.key)).toBeUndefined();
    expect(await repositories.apiKeys.authenticate(valid.key)).toMatchObject({ userId: user.id });
    expect((await repositories.apiKeys.list(user.id)).map((key) => key.name)).toEqual(['old', 'new']);
  });

  it("one user neither lists nor deletes another's keys", async () => {
    const { repositories } = await each.shared();
    const [alice, bob] = await Promise.all([repositories.users.create(), repositories.users.create()]);
    const { key, record } = await repositories.apiKeys.create({ userId: alice.id, name: 'alice' });
    expect(await repositories.apiKeys.list(bob.id)).toEqual([]);
    expect(await repositories.apiKeys.delete(bob.id, record.id)).toBe(false);
    expect(await repositories.apiKeys.authenticate(key)).toMatchObject({ userId: alice.id });
    expect(await repositories.apiKeys.delete(alice.id, record.id)).toBe(true);
    expect(await repositories.apiKeys.authenticate(key)).toBeUndefined();
    expect(await repositories.apiKeys.delete(alice.id, record.id)).toBe(false);
  });
});
