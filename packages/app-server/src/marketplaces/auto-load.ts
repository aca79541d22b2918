import type { LoadedMarketplace, RegisteredMarketplace } from '@bosun/protocol';
import type { MarketplaceEntry } from './composition.ts';
import { type MarketplaceGit, sourcesLibrary } from './git-access.ts';
import type { MarketplaceRegistry } from './registry.ts';

/** What a new conversation gets from the auto-loaded marketplaces. */
export interface AutoLoad {
  /** For the agent server (`agent_context.registered_marketplaces`), each pinned to the commit resolved now. */
  registrations: RegisteredMarketplace[];
  /** The record of the conversation: every auto-loaded marketplace, with its commit or why it is not loaded. */
  loaded: LoadedMarketplace[];
  /** One line per marketplace that could not be resolved (the start task's problems). */
  problems: string[];
}

/**
 * The auto-loaded marketplaces of a new conversation of `userId` in `orgId` (instance < organization < personal):
 * each ref is resolved to its commit here, through the host guard and with the user's tokens (one lookup for the
 * starts asking the same at once: MarketplaceGit.resolve), and passed to the
 * agent server pinned to it, so the conversation records exactly what it loaded. One that cannot be resolved is
 * left out with a problem; the start goes on. Conversations already running are never touched.
 */
export async function autoLoadFor(
  registry: MarketplaceRegistry,
  git: MarketplaceGit,
  userId: string,
  orgId: string | null,
): Promise<AutoLoad> {
  const entries = await registry.autoLoaded(userId, orgId);
  if (entries.length === 0) return { registrations: [], loaded: [], problems: [] };
  const { redactCredentials } = await sourcesLibrary();
  return git.scratch(userId, async (cache, authFor) => {
    const resolved = await Promise.all(
      entries.map(async (entry) => {
        try {
          // A marketplace whose updates are reviewed loads its approved commit until another is approved.
          const sha =
            entry.updates === 'review' && entry.approved_ref
              ? entry.approved_ref
              : await git.resolve(cache, entry.source, entry.ref, authFor(entry.source));
          return { entry, sha, problem: null };
        } catch (error) {
          return { entry, sha: null, problem: redactCredentials((error as Error).message) };
        }
      }),
    );
    return {
      registrations: resolved.flatMap(({ entry, sha }) => (sha ? [registrationOf(entry, sha)] : [])),
      loaded: resolved.map(({ entry, sha, problem }) => loadedOf(entry, sha, problem)),
      problems: resolved.flatMap(({ entry, problem }) =>
        problem ? [`marketplace ${entry.name} (${entry.scope}): not loaded: ${problem}`] : [],
      ),
    };
  });
}

function registrationOf(entry: MarketplaceEntry, sha: string): RegisteredMarketplace {
  return { name: entry.name, source: entry.source, ref: sha, repo_path: entry.repo_path, auto_load: true };
}

function loadedOf(entry: MarketplaceEntry, sha: string | null, problem: string | null): LoadedMarketplace {
  return {
    name: entry.name,
    scope: entry.scope,
    source: entry.source,
    ref: entry.ref,
    repo_path: entry.repo_path,
    resolved_ref: sha,
    registered_by: entry.registered_by,
    registered_at: entry.registered_at,
    problem,
  };
}
