import { sql } from 'kysely';
import { expect, it } from 'vitest';
import type { AppDatabase, Repositories } from '../../src/data/index.ts';
import { ORG_SCOPED_TABLES } from '../../src/data/repositories/organization-deletion.ts';
import { describeEachDatabase } from '../support/databases.ts';

/** The tables of the schema with an `org_id` column, as the database itself lists them. */
async function tablesWithOrgId(database: AppDatabase): Promise<string[]> {
  const tables = await database.db.introspection.getTables();
  return tables
    .filter((table) => table.columns.some((column) => column.name === 'org_id'))
    .map((table) => table.name)
    .sort();
}

/** An organization of an owner and a member with a row in every table that names organizations. */
async function populated(repositories: Repositories) {
  const { users, organizations, apiKeys, marketplaces, conversations, secrets } = repositories;
  const [owner, member] = [await users.create(), await users.create()];
  const org = await organizations.create({ name: 'Doomed', ownerUserId: owner.id });
  await organizations.addMember(org.id, member.id, 'member');
  const bound = await apiKeys.create({ userId: member.id, name: 'bound', orgId: org.id });
  const unbound = await apiKeys.create({ userId: member.id, name: 'own' });
  const entry = { source: 'github:acme/market', ref: null, repo_path: null, auto_load: true, registeredBy: owner.id };
  const reviewed = { ...entry, updates: 'follow' as const, approved_ref: null };
  await marketplaces.create({ scope: 'organization', orgId: org.id }, { ...reviewed, name: 'shared' });
  await marketplaces.create({ scope: 'personal', userId: member.id }, { ...reviewed, name: 'mine' });
  const conversationId = crypto.randomUUID();
  const now = new Date().toISOString();
  await conversations.create({
    id: conversationId,
    user_id: member.id,
    org_id: org.id,
    created_at: now,
    updated_at: now,
  });
  await secrets.create(member.id, { name: 'KEPT', value: 'kept-value' });
  return { owner, member, org, bound, unbound, conversationId };
}

describeEachDatabase('deleting an organization', (each) => {
  it('knows every table with an org_id column (a new one must say what deletion does to its rows)', async () => {
    const { database } = await each.shared();
    expect(await tablesWithOrgId(database)).toEqual(Object.keys(ORG_SCOPED_TABLES).sort());
  });

  it('takes its memberships, bound keys and marketplaces in one go, and leaves users their own', async () => {
    const { repositories, database } = await each.shared();
    const { owner, member, org, bound, unbound, conversationId } = await populated(repositories);
    const outcome = await repositories.organizations.delete(org.id, owner.id);
    expect(outcome).toEqual({
      deleted: {
        organization: { id: org.id, name: 'Doomed', created_at: org.created_at },
        removed: { memberships: 2, api_keys: 1, marketplaces: 1 },
        kept: { conversations: 1 },
      },
    });
    for (const table of await tablesWithOrgId(database)) {
      const { rows } = await sql<{
        n: number;
      }>`select count(*) as n from ${sql.table(table)} where org_id = ${org.id}`.execute(database.db);
      expect(Number(rows[0]?.n), table).toBe(0);
    }
    expect(await repositories.organizations.get(org.id)).toBeUndefined();
    expect(await repositories.organizations.listForUser(member.id)).toEqual([]);
    expect(await repositories.apiKeys.authenticate(bound.key)).toBeUndefined();
    expect(await repositories.apiKeys.authenticate(unbound.key)).toMatchObject({ userId: member.id });
    expect(await repositories.conversations.getOfAnyUser(conversationId)).toMatchObject({
      user_id: member.id,
      org_id: null,
    });
    expect(await repositories.secrets.value(member.id, 'KEPT')).toBe('kept-value');
    expect(await repositories.marketplaces.get({ scope: 'personal', userId: member.id }, 'mine')).toBeDefined();
  });

  it('is refused to admins and members (with their role) and to outsiders, who change nothing', async () => {
    const { repositories } = await each.shared();
    const { organizations, users } = repositories;
    const { owner, member, org } = await populated(repositories);
    const admin = await users.create();
    await organizations.addMember(org.id, admin.id, 'admin');
    expect(await organizations.delete(org.id, admin.id)).toEqual({ refused: 'admin' });
    expect(await organizations.delete(org.id, member.id)).toEqual({ refused: 'member' });
    expect(await organizations.delete(org.id, (await users.create()).id)).toEqual({ refused: undefined });
    expect(await organizations.delete(crypto.randomUUID(), owner.id)).toEqual({ refused: undefined });
    expect(await organizations.countMembers(org.id)).toBe(3);
  });

  it('an owner demoted while deleting: either the deletion or the demotion wins, never half of both', async () => {
    const { repositories } = await each.shared();
    const { organizations, users } = repositories;
    for (let round = 0; round < 5; round++) {
      const [owner, coOwner] = [await users.create(), await users.create()];
      const org = await organizations.create({ name: `Race ${round}`, ownerUserId: owner.id });
      await organizations.addMember(org.id, coOwner.id, 'owner');
      const [deletion, demotion] = await Promise.all([
        organizations.delete(org.id, owner.id),
        organizations.setRole(org.id, owner.id, 'member'),
      ]);
      if ('deleted' in deletion) {
        expect(demotion).toBe(false);
        expect(await organizations.get(org.id)).toBeUndefined();
      } else {
        expect(deletion).toEqual({ refused: 'member' });
        expect(demotion).toBe(true);
        expect(await organizations.members(org.id)).toHaveLength(2);
      }
    }
  });

  it('a member added to an organization deleted meanwhile is not added (false, no row)', async () => {
    const { repositories } = await each.shared();
    const { organizations, users } = repositories;
    const { owner, org } = await populated(repositories);
    await organizations.delete(org.id, owner.id);
    const late = await users.create();
    expect(await organizations.addMember(org.id, late.id, 'member')).toBe(false);
    expect(await organizations.listForUser(late.id)).toEqual([]);
  });
});

describeEachDatabase('renaming and counting an organization', (each) => {
  it('renames it (undefined for none) and counts its members, by part of their email in any case', async () => {
    const { repositories } = await each.shared();
    const { organizations, users } = repositories;
    const owner = await users.create({ email: `Ann.${crypto.randomUUID()}@Example.test` });
    const other = await users.create({ email: `bob_${crypto.randomUUID()}@other.test` });
    const org = await organizations.create({ name: 'Old', ownerUserId: owner.id });
    await organizations.addMember(org.id, other.id, 'member');
    expect(await organizations.rename(org.id, 'New')).toEqual({ id: org.id, name: 'New', created_at: org.created_at });
    expect(await organizations.rename(crypto.randomUUID(), 'New')).toBeUndefined();
    expect(await organizations.countMembers(org.id)).toBe(2);
    expect(await organizations.countMembers(org.id, 'EXAMPLE.test')).toBe(1);
    expect(await organizations.countMembers(org.id, 'bob_')).toBe(1);
    // `_` and `%` are themselves, not patterns.
    expect(await organizations.countMembers(org.id, 'ann_')).toBe(0);
    expect(await organizations.countMembers(org.id, '%')).toBe(0);
    expect(await organizations.owners(org.id)).toBe(1);
  });
});
