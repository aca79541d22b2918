import { InputError } from '@bosun/http';
import { Type } from '@sinclair/typebox';

/** The query of a page: the previous page's `next_page_id`, and how many items. */
export const pageQuery = {
  page_id: Type.Optional(Type.String({ maxLength: 512, description: 'The `next_page_id` of the previous page.' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'Items per page (default 100).' })),
};

export interface PageRequest {
  page_id?: string;
  limit?: number;
}

const invalidPageId = (msg: string) => new InputError([{ loc: ['query', 'page_id'], msg, type: 'value_error' }]);

/** A page as the wire has it (`{items, next_page_id}`); a page id the store did not hand out is a 422. */
export async function pageOf<T, W>(
  toWire: (item: T) => W,
  search: () => Promise<{ items: T[]; next_page_id: string | null }>,
) {
  try {
    const page = await search();
    return { items: page.items.map(toWire), next_page_id: page.next_page_id };
  } catch (error) {
    if (error instanceof Error && error.name === 'InvalidPageIdError') throw invalidPageId(error.message);
    throw error;
  }
}

/**
 * A page of a list held whole (a user's organizations, an organization's members: short lists). The page id is
 * the offset of the page's first item.
 */
export function pageOfList<T, W>(items: T[], toWire: (item: T) => W, { page_id, limit = 100 }: PageRequest) {
  const start = page_id === undefined ? 0 : Number(page_id);
  if (!/^\d{1,9}$/.test(page_id ?? '0') || start > items.length) {
    throw invalidPageId('page_id is not a page id returned by a previous page');
  }
  const end = start + limit;
  return { items: items.slice(start, end).map(toWire), next_page_id: end < items.length ? String(end) : null };
}
