import { InputError } from '@bosun/http';
import { Type } from '@sinclair/typebox';

/** The query of a page: the previous page's `next_page_id`, and how many items. */
export const pageQuery = {
  page_id: Type.Optional(Type.String({ maxLength: 512, description: 'The `next_page_id` of the previous page.' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'Items per page (default 100).' })),
};

/** A page as the wire has it (`{items, next_page_id}`); a page id the store did not hand out is a 422. */
export async function pageOf<T, W>(
  toWire: (item: T) => W,
  search: () => Promise<{ items: T[]; nextPageId: string | null }>,
) {
  try {
    const page = await search();
    return { items: page.items.map(toWire), next_page_id: page.nextPageId };
  } catch (error) {
    if (error instanceof Error && error.name === 'InvalidPageIdError') {
      throw new InputError([{ loc: ['query', 'page_id'], msg: error.message, type: 'value_error' }]);
    }
    throw error;
  }
}
