import type { SelectQueryBuilder } from 'kysely';

type Count = { count: string | number | bigint } | undefined;

/** How many rows `query` finds, as a number whichever driver answers (PostgreSQL's count is a bigint, sent as text). */
export async function countRows<DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>): Promise<number> {
  const row = (await query.select((eb) => eb.fn.countAll().as('count')).executeTakeFirst()) as Count;
  return Number(row?.count ?? 0);
}
