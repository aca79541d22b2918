import type { MarketplaceChange } from '../data/index.ts';

/**
 * How a change moves a registration's approved commit: `follow` drops it; turning `review` on, or moving the ref of
 * a reviewed one, starts again from the commit the ref names now (`head`); anything else keeps it.
 */
export async function approvalChange(
  current: { ref: string | null; updates: 'follow' | 'review' },
  change: Pick<MarketplaceChange, 'ref' | 'updates'>,
  head: (ref: string | null) => Promise<string>,
): Promise<{ approved_ref?: string | null }> {
  if (change.updates === 'follow') return { approved_ref: null };
  const ref = change.ref === undefined ? current.ref : change.ref;
  const startsReview = change.updates === 'review' && current.updates !== 'review';
  const refMoves = current.updates === 'review' && change.ref !== undefined;
  return startsReview || refMoves ? { approved_ref: await head(ref) } : {};
}
