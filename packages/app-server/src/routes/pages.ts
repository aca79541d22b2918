import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import { invalid } from './replies.ts';

/** The query of a page: the previous page's `next_page_id`, and how many items. */
export const pageQuery = {
  page_id: Type.Optional(Type.String({ maxLength: 512, description: 'The `next_page_id` of the previous page.' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'Items per page (default 100).' })),
};

/**
 * A page as the wire has it (`{items, next_page_id}`). A page id the store did not hand out is a 422, sent here:
 * the answer is then undefined.
 */
export async function pageOf<T, W>(
  reply: FastifyReply,
  toWire: (item: T) => W,
  search: () => Promise<{ items: T[]; nextPageId: string | null }>,
) {
  try {
    const page = await search();
    return { items: page.items.map(toWire), next_page_id: page.nextPageId };
  } catch (error) {
    if (error instanceof Error && error.name === 'InvalidPageIdError') {
      invalid(reply, ['query', 'page_id'], error.message);
      return undefined;
    }
    throw error;
  }
}
