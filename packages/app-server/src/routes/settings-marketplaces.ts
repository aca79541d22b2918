import type { FastifyInstance } from 'fastify';
import type { PersonalMarketplaces } from '../marketplaces/personal-list.ts';

const DECORATION = 'settingsMarketplaces';

/**
 * The settings routes are built from the identity routes' dependencies, which hold no marketplaces: the
 * marketplaces module, registered in the same `/api/v1` scope, offers its personal lists to them here.
 */
export function offerToSettings(api: FastifyInstance, personal: PersonalMarketplaces): void {
  if (!api.hasDecorator(DECORATION)) api.decorate(DECORATION, personal);
}

/** The personal marketplaces the settings read and write; undefined on a server without marketplaces. */
export function settingsMarketplacesOf(api: FastifyInstance): PersonalMarketplaces | undefined {
  return api.hasDecorator(DECORATION)
    ? ((api as unknown as Record<string, PersonalMarketplaces>)[DECORATION] ?? undefined)
    : undefined;
}
