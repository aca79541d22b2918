import { v7 as uuidv7 } from 'uuid';
import type { AppDatabase } from './database.ts';
import { type NewAppConversation, insertConversations } from './repositories/conversations.ts';
import type { UsersTable } from './tables.ts';

const USER_BATCH = 2_000;
/** The timestamps of seeded rows step back one second each from this instant. */
const SEED_EPOCH = Date.parse('2026-01-01T00:00:00.000Z');

/**
 * Fills the database for benchmarks: `users` users (`bench-user-<n>@example.com`) and `conversations`
 * conversations spread round-robin over them, in batched inserts inside one transaction. Returns the user ids.
 */
export async function seedForBenchmark(
  database: AppDatabase,
  counts: { users: number; conversations: number },
): Promise<{ userIds: string[] }> {
  if (counts.users < 1 && counts.conversations > 0) throw new Error('conversations need at least one user');
  const userIds = Array.from({ length: counts.users }, () => uuidv7());
  await database.db.transaction().execute(async (trx) => {
    for (let start = 0; start < userIds.length; start += USER_BATCH) {
      const batch: UsersTable[] = userIds.slice(start, start + USER_BATCH).map((id, offset) => ({
        id,
        email: `bench-user-${start + offset}@example.com`,
        name: `Bench user ${start + offset}`,
        created_at: seedTime(start + offset),
      }));
      await trx.insertInto('users').values(batch).execute();
    }
    const conversations: NewAppConversation[] = Array.from({ length: counts.conversations }, (_, index) => ({
      id: uuidv7(),
      user_id: userIds[index % userIds.length] as string,
      org_id: null,
      sandbox_id: null,
      title: `Conversation ${index}`,
      created_at: seedTime(index),
      updated_at: seedTime(index),
    }));
    await insertConversations(trx, conversations);
  });
  return { userIds };
}

const seedTime = (index: number) => new Date(SEED_EPOCH - index * 1_000).toISOString();
