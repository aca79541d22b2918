import type {
  MarketplaceEntry as ListedEntry,
  MarketplaceListing,
  PluginChanges,
  SkillsTable,
  SkillsTableRow,
} from '@bosun/protocol';
import type { GitAuth, GitCache } from '@bosun/sources';
import { type MarketplaceEntry, effective } from './composition.ts';
import { type MarketplaceGit, sourcesLibrary } from './git-access.ts';
import type { MarketplaceRegistry } from './registry.ts';
import { pluginsAt, updateChanges } from './update-review.ts';

/**
 * The Skills & Plugins table of a user in an organization: every plugin the composed marketplaces list, read now
 * at each marketplace's current commit (through the host guard, with the user's tokens, in a directory of this
 * request's own) with what it brings and its problems, and the skills of it the user turned off. A marketplace
 * that cannot be read is a row of its own saying why.
 */
export async function skillsTable(
  registry: MarketplaceRegistry,
  git: MarketplaceGit,
  user: { userId: string; orgId: string | null; disabledSkills: readonly string[] },
): Promise<SkillsTable> {
  const entries = effective(await registry.composed(user.userId, user.orgId));
  const disabled = new Set(user.disabledSkills);
  const sources = await sourcesLibrary();
  return git.scratch(user.userId, async (cache, authFor) => {
    const rows = await Promise.all(
      entries.map(async (entry) => {
        const reviewed = entry.updates === 'review' && entry.approved_ref ? entry.approved_ref : null;
        const read = await sources.readMarketplace(
          { ...entry, ref: reviewed ?? entry.ref },
          cache,
          authFor(entry.source),
        );
        const listing = await sources.inspectMarketplace(read, cache, authFor, { remote: true });
        const review = reviewed ? await pendingUpdate(entry, reviewed, cache, authFor) : null;
        const head = listing.problems.length || !listing.resolved_ref ? [marketplaceRow(entry, listing)] : [];
        const plugins = listing.entries.map((listed) => ({
          ...pluginRow(entry, listing, listed, disabled),
          ...(review ? { pending_ref: review.ref, changes: review.changes.get(listed.name) ?? null } : {}),
        }));
        const added = review ? [...review.changes].filter(([, change]) => change.status === 'added') : [];
        return [
          ...head,
          ...plugins,
          ...added.map(([name, changes]) => ({
            ...addedRow(entry, listing, name),
            pending_ref: review?.ref ?? null,
            changes,
          })),
        ];
      }),
    );
    return { rows: rows.flat(), disabled_skills: [...user.disabledSkills] };
  });
}

/** The commit a `review` marketplace's ref names now and what it changes, when it is not the approved one. */
async function pendingUpdate(
  entry: MarketplaceEntry,
  approved: string,
  cache: GitCache,
  authFor: (source: string) => GitAuth | undefined,
): Promise<{ ref: string; changes: Map<string, PluginChanges> } | null> {
  const now = await cache.resolve(entry.source, entry.ref, authFor(entry.source)).catch(() => null);
  if (!now || now === approved) return null;
  const [before, after] = await Promise.all([
    pluginsAt(entry, approved, cache, authFor),
    pluginsAt(entry, now, cache, authFor),
  ]);
  return { ref: now, changes: updateChanges(before, after) };
}

/** A plugin the pending update brings (not loaded until approved). */
function addedRow(entry: MarketplaceEntry, listing: MarketplaceListing, name: string): SkillsTableRow {
  return { ...marketplaceRow(entry, listing), kind: 'plugin', name, description: null, problems: [] };
}

function baseRow(entry: MarketplaceEntry, listing: MarketplaceListing) {
  return {
    origin: 'marketplace' as const,
    scope: entry.scope,
    marketplace: entry.name,
    resolved_ref: listing.resolved_ref,
    auto_load: entry.auto_load,
    pending_ref: null,
    changes: null,
  };
}

function marketplaceRow(entry: MarketplaceEntry, listing: MarketplaceListing): SkillsTableRow {
  return {
    ...baseRow(entry, listing),
    kind: 'marketplace',
    name: entry.name,
    description: listing.description,
    source: entry.source,
    ref: entry.ref,
    skills: [],
    disabled_skills: [],
    commands: [],
    agents: [],
    hooks: [],
    mcp_servers: [],
    problems: listing.problems,
  };
}

function pluginRow(
  entry: MarketplaceEntry,
  listing: MarketplaceListing,
  listed: ListedEntry,
  disabled: ReadonlySet<string>,
): SkillsTableRow {
  const contents = listed.contents;
  const skills = contents?.skills ?? [];
  // A command loads as the skill `plugin:command`: turning that name off turns the command off.
  const commandSkills = (contents?.commands ?? []).map((command) => command.replace(/^\//, ''));
  return {
    ...baseRow(entry, listing),
    kind: 'plugin',
    name: contents?.plugin ?? listed.name,
    description: listed.description,
    source: listed.source,
    ref: listed.ref,
    skills,
    disabled_skills: [...skills, ...commandSkills].filter((name) => disabled.has(name)),
    commands: contents?.commands ?? [],
    agents: contents?.agents ?? [],
    hooks: contents?.hooks ?? [],
    mcp_servers: contents?.mcp_servers ?? [],
    problems: listed.problems,
  };
}
