import { expect, it } from 'vitest';
import { InvalidPageIdError, type NewAppConversation, seedForBenchmark } from '../../src/data/index.ts';
import { describeEachDatabase } from '../support/databases.ts';

describeEachDatabase('app conversations', (each) => {
  const conversation = (userId: string, index: number, createdAt: string): NewAppConversation => ({
    id: `${userId.slice(-12)}-${String(index).padStart(4, '0')}`,
    user_id: userId,
    org_id: null,
    sandbox_id: null,
    title: `c${index}`,
    created_at: createdAt,
    updated_at: createdAt,
  });

  it("counts and pages a user's conversations newest first, ties broken by id, never another user's", async () => {
    const { repositories } = await each.shared();
    const [alice, bob] = await Promise.all([repositories.users.create(), repositories.users.create()]);
    const rows = Array.from({ length: 2_500 }, (_, index) =>
      conversation(alice.id, index, new Date(Date.UTC(2026, 0, 1, 0, 0, Math.floor(index / 2))).toISOString()),
    );
    await repositories.conversations.insert([...rows, conversation(bob.id, 0, '2030-01-01T00:00:00.000Z')]);
    expect(await repositories.conversations.count(alice.id)).toBe(2_500);
    expect(await repositories.conversations.count(bob.id)).toBe(1);

    const seen: string[] = [];
    let pageId: string | undefined;
    do {
      const page = await repositories.conversations.page(alice.id, { limit: 333, ...(pageId ? { pageId } : {}) });
      seen.push(...page.items.map((item) => item.id));
      expect(page.items.every((item) => item.user_id === alice.id)).toBe(true);
      pageId = page.next_page_id ?? undefined;
    } while (pageId);
    const expected = [...rows]
      .sort((a, b) =>
        a.created_at === b.created_at ? b.id.localeCompare(a.id) : b.created_at.localeCompare(a.created_at),
      )
      .map((row) => row.id);
    expect(seen).toEqual(expected);

    const first = rows[0] as NewAppConversation;
    expect(await repositories.conversations.get(alice.id, first.id)).toMatchObject({
      ...first,
      execution_status: null,
    });
    expect(await repositories.conversations.get(bob.id, first.id)).toBeUndefined();
    await expect(repositories.conversations.page(alice.id, { limit: 10, pageId: 'bm90IGEgcGFnZQ' })).rejects.toThrow(
      InvalidPageIdError,
    );
  });

  it('keeps a conversation whose organization was deleted while it started as its user’s, as the deletion keeps others', async () => {
    const { repositories } = await each.shared();
    const user = await repositories.users.create();
    const org = await repositories.organizations.create({ name: 'Gone soon', ownerUserId: user.id });
    await repositories.organizations.delete(org.id, user.id);
    const row = { ...conversation(user.id, 1, '2026-11-27T10:00:00.000Z'), org_id: org.id };
    await repositories.conversations.create(row);
    expect(await repositories.conversations.get(user.id, row.id)).toMatchObject({ id: row.id, org_id: null });

    // A row naming a user that does not exist is still refused: only a deleted organization is let go.
    const orphan = { ...conversation('no-such-user-000000', 2, '2026-11-27T10:00:00.000Z'), org_id: org.id };
    await expect(repositories.conversations.create(orphan)).rejects.toThrow();
  });

  it('seeds users and conversations for benchmarks', async () => {
    const database = await each.open();
    const { userIds } = await seedForBenchmark(database, { users: 30, conversations: 300 });
    expect(userIds).toHaveLength(30);
    const count = async (table: 'users' | 'app_conversations') =>
      Number(
        (
          await database.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await count('users')).toBe(30);
    expect(await count('app_conversations')).toBe(300);
  });
});
