import type { SkillsTable, SkillsTableRow } from '@bosun/protocol';
import type { Repositories } from '../data/index.ts';
import type { GitProviderUrls } from '../git/provider-urls.ts';
import type { ProviderTokenReader } from '../git/token-renewal.ts';
import { type AutoLoad, autoLoadFor } from './auto-load.ts';
import { disabledSkillsOf } from './disabled-skills.ts';
import { MarketplaceGit } from './git-access.ts';
import { instanceMarketplaces } from './instance.ts';
import { PersonalMarketplaces } from './personal-list.ts';
import { MarketplaceRegistry } from './registry.ts';
import { skillsTable } from './skills-table.ts';

export type { AutoLoad } from './auto-load.ts';
export { disabledSkillsOf } from './disabled-skills.ts';
export { MarketplaceGit } from './git-access.ts';
export { PersonalMarketplaces, type SettingsMarketplaces } from './personal-list.ts';
export { MarketplaceRegistry } from './registry.ts';

export interface Marketplaces {
  registry: MarketplaceRegistry;
  /** The user's own list as the settings read and replace it. */
  personal: PersonalMarketplaces;
  git: MarketplaceGit;
  /** What a new conversation of the user in the organization auto-loads (see `autoLoadFor`). */
  autoLoad(userId: string, orgId: string | null): Promise<AutoLoad>;
  /** The Skills & Plugins table of the user in the organization (see `skillsTable`). */
  table(userId: string, orgId: string | null): Promise<SkillsTable>;
}

/** The table's rows of what a conversation gets besides the marketplaces (the skills repositories), read with `git`. */
export type MoreTableRows = (
  git: MarketplaceGit,
  user: { userId: string; disabledSkills: readonly string[] },
) => Promise<SkillsTableRow[]>;

/**
 * The marketplaces of a server: its registry over `repositories` and the configuration, and Git through the guard
 * with the users' tokens as `gitTokens` reads them (the server's: renewed when they expire). `moreRows` come first
 * in the Skills & Plugins table.
 */
export function marketplacesOf(
  repositories: Pick<Repositories, 'marketplaces' | 'organizations' | 'providerTokens' | 'settings'>,
  config: { instance_marketplaces?: string[]; git_allow_private_hosts?: boolean; marketplace_ref_ttl?: number },
  providers: GitProviderUrls,
  gitTokens: ProviderTokenReader = repositories.providerTokens,
  moreRows?: MoreTableRows,
): Marketplaces {
  const git = new MarketplaceGit({
    providers,
    allowPrivateHosts: config.git_allow_private_hosts ?? false,
    gitTokens,
    refTtlMs: (config.marketplace_ref_ttl ?? 0) * 1000,
  });
  const registry = new MarketplaceRegistry({
    repositories,
    instance: instanceMarketplaces(config.instance_marketplaces ?? []).entries,
    resolve: (userId, source, ref) =>
      git.scratch(userId, (cache, authFor) => cache.resolve(source, ref, authFor(source))),
  });
  return {
    registry,
    personal: new PersonalMarketplaces(registry, repositories.marketplaces),
    git,
    autoLoad: (userId, orgId) => autoLoadFor(registry, git, userId, orgId),
    async table(userId, orgId) {
      const disabledSkills = disabledSkillsOf((await repositories.settings.get(userId)) ?? {});
      const [more, table] = await Promise.all([
        moreRows?.(git, { userId, disabledSkills }) ?? [],
        skillsTable(registry, git, { userId, orgId, disabledSkills }),
      ]);
      return { ...table, rows: [...more, ...table.rows] };
    },
  };
}
