/** The server's limit on the ids of one batch get. */
export const BATCH_LIMIT = 100;

/** `get` of every id, in order, asked BATCH_LIMIT ids at a time (all batches at once). */
export async function inBatches<T>(ids: readonly string[], get: (batch: string[]) => Promise<T[]>): Promise<T[]> {
  const batches: string[][] = [];
  for (let start = 0; start < ids.length; start += BATCH_LIMIT) batches.push(ids.slice(start, start + BATCH_LIMIT));
  return (await Promise.all(batches.map(get))).flat();
}
