import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import type { NewAppConversation } from '../../src/data/index.ts';
import { describeEachDatabase } from '../support/databases.ts';

const CONVERSATIONS = 10_000;

describeEachDatabase('searching conversations', (each) => {
  it(`pages, filters and counts ${CONVERSATIONS} conversations of a user among another user's`, async () => {
    const { repositories, database } = await each.shared();
    const [user, neighbour] = [await repositories.users.create(), await repositories.users.create()];
    const rows: NewAppConversation[] = [];
    for (let index = 0; index < CONVERSATIONS; index++) {
      const at = new Date(Date.UTC(2026, 0, 1) + index * 1_000).toISOString();
      for (const owner of [user, neighbour]) {
        rows.push({
          id: randomUUID(),
          user_id: owner.id,
          sandbox_id: `sandbox-${index % 50}`,
          title: `Conversation ${index} about ${index % 7 === 0 ? 'parsers' : 'docs'}`,
          created_at: at,
          updated_at: at,
        });
      }
    }
    await repositories.conversations.insert(rows);
    const { conversations } = repositories;
    const page = await conversations.search(user.id, { titleContains: 'PARSERS' }, { limit: 100 });
    expect(page.items).toHaveLength(100);
    expect(page.items.every((row) => row.user_id === user.id && row.title?.includes('parsers'))).toBe(true);
    expect(await conversations.count(user.id, { titleContains: 'parsers' })).toBe(Math.ceil(CONVERSATIONS / 7));
    expect(await conversations.count(user.id, { sandboxId: 'sandbox-7' })).toBe(CONVERSATIONS / 50);
    // How fast these are is measured by bench/app-conversation-search.ts; on PostgreSQL the title filter has an index.
    if (each.dialect === 'postgres') {
      const { rows } = await sql<{ indexname: string }>`select indexname from pg_indexes
        where tablename = 'app_conversations' and indexname = 'app_conversations_title_trigrams'`.execute(database.db);
      expect(rows).toHaveLength(1);
    }
  });
});
