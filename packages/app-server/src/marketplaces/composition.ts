import type { Marketplace, MarketplaceScope } from '@bosun/protocol';

/** A registration of any scope, as the composition sees it. */
export type MarketplaceEntry = Omit<Marketplace, 'writable' | 'overridden_by'>;

/** An entry of the composition: whether a later one of the same name wins over it. */
export interface ComposedEntry {
  entry: MarketplaceEntry;
  overriddenBy: MarketplaceScope | null;
}

/**
 * The marketplaces of a user's conversations: the instance's, then their organization's, then their own, each in
 * the order registered; by name, a later scope wins (instance < organization < personal). A personal entry is
 * never registered under an inherited name (409), but one can meet an organization entry registered later (or
 * an organization joined later): it then wins, and the entry it hides says so (`overridden_by`) rather than
 * disappearing.
 */
export function compose(
  instance: readonly MarketplaceEntry[],
  organization: readonly MarketplaceEntry[],
  personal: readonly MarketplaceEntry[],
): ComposedEntry[] {
  const all = [...instance, ...organization, ...personal];
  const winner = new Map<string, MarketplaceEntry>();
  for (const entry of all) winner.set(entry.name, entry);
  return all.map((entry) => {
    const wins = winner.get(entry.name) as MarketplaceEntry;
    return { entry, overriddenBy: wins === entry ? null : wins.scope };
  });
}

/** The entries that take effect (none overridden). */
export function effective(composed: readonly ComposedEntry[]): MarketplaceEntry[] {
  return composed.filter((c) => c.overriddenBy === null).map((c) => c.entry);
}
