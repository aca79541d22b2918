/** The app server's limit on the ids of one batch get (the agent server's batch gets say their own). */
export const BATCH_LIMIT = 100;

/** `get` of every id, in order, asked `limit` ids at a time (all batches at once). */
export async function inBatches<T>(
  ids: readonly string[],
  get: (batch: string[]) => Promise<T[]>,
  limit = BATCH_LIMIT,
): Promise<T[]> {
  const batches: string[][] = [];
  for (let start = 0; start < ids.length; start += limit) batches.push(ids.slice(start, start + limit));
  return (await Promise.all(batches.map(get))).flat();
}

/** Every item of a paged search, page after page: `page` asks for the page after `pageId` (none: the first). */
export async function* everyPage<T>(
  page: (pageId: string | undefined) => Promise<{ items: T[]; next_page_id: string | null }>,
): AsyncGenerator<T, void, undefined> {
  let pageId: string | undefined;
  do {
    const { items, next_page_id } = await page(pageId);
    yield* items;
    pageId = next_page_id ?? undefined;
  } while (pageId !== undefined);
}
