import { type SelectQueryBuilder, sql } from 'kysely';
import { InvalidPageIdError } from './errors.ts';

/**
 * Page ids are opaque to clients: the position after which the next page starts (a keyset cursor, so pages stay
 * correct while rows are added), encoded as base64url JSON of the sort key's values.
 */
export function encodePageId(position: string[]): string {
  return Buffer.from(JSON.stringify(position), 'utf8').toString('base64url');
}

/** The position in a page id, with as many text values as the sort key has; InvalidPageIdError otherwise. */
export function decodePageId(pageId: string, size: number): string[] {
  try {
    const position: unknown = JSON.parse(Buffer.from(pageId, 'base64url').toString('utf8'));
    if (Array.isArray(position) && position.length === size && position.every((item) => typeof item === 'string')) {
      return position;
    }
  } catch {}
  throw new InvalidPageIdError();
}

export interface Page<T> {
  items: T[];
  next_page_id: string | null;
}

/** A page from `limit + 1` rows read: the extra row only says whether there is a next page. */
export function pageOf<R, T>(rows: R[], limit: number, position: (row: R) => string[], item: (row: R) => T): Page<T> {
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return {
    items: items.map(item),
    next_page_id: rows.length > limit && last !== undefined ? encodePageId(position(last)) : null,
  };
}

/**
 * A page of `query`'s rows newest first (by creation, then id), after `pageId`'s position: a keyset walk of the
 * (user_id, created_at, id) index the tables paged this way have.
 */
export async function newestFirst<DB, TB extends keyof DB, O extends { created_at: string; id: string }>(
  query: SelectQueryBuilder<DB, TB, O>,
  options: { limit: number; pageId?: string },
): Promise<Page<O>> {
  let paged = query;
  if (options.pageId !== undefined) {
    const [createdAt, id] = decodePageId(options.pageId, 2) as [string, string];
    paged = paged.where(sql<boolean>`(created_at < ${createdAt} or (created_at = ${createdAt} and id < ${id}))`);
  }
  const rows = await paged
    .orderBy(sql`created_at`, 'desc')
    .orderBy(sql`id`, 'desc')
    .limit(options.limit + 1)
    .execute();
  return pageOf(
    rows,
    options.limit,
    (row) => [row.created_at, row.id],
    (row) => row,
  );
}
