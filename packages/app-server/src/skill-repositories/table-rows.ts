import type { ConversationSkillRepository, PluginProblem, SkillsTableRow } from '@bosun/protocol';
import { type MarketplaceGit, sourcesLibrary } from '../marketplaces/git-access.ts';
import type { MoreTableRows } from '../marketplaces/index.ts';
import { SkillRepositoryDiscovery, type SkillRepositoryDiscoveryDeps } from './discovery.ts';

/** The table's rows of the skills repositories, looked for as a start does with `deps` and the table's Git. */
export function skillRepositoryTableRows(deps: Omit<SkillRepositoryDiscoveryDeps, 'git'>): MoreTableRows {
  return (git, user) => skillRepositoryRows(new SkillRepositoryDiscovery({ ...deps, git }), git, user);
}

/**
 * The Skills & Plugins table's rows of the organization and user skills repositories a new conversation of the
 * user gets without a selected repository (the user's own on each provider they connected): each read now at its
 * default branch's commit, with its skills (and those the user turned off); an owner none of whose could be read
 * is one row saying why.
 */
export async function skillRepositoryRows(
  discovery: Pick<SkillRepositoryDiscovery, 'find' | 'withCredentials'>,
  git: MarketplaceGit,
  user: { userId: string; disabledSkills: readonly string[] },
): Promise<SkillsTableRow[]> {
  const found = await discovery.find({ userId: user.userId, provider: null, repository: null });
  if (found.record.length === 0) return [];
  const readable = await discovery.withCredentials(user.userId, found.repositories, [], found.record);
  const { loadSkillRepositories } = await sourcesLibrary();
  const disabled = new Set(user.disabledSkills);
  // An owner's repositories that were read; of an owner none of whose was, its first (the current name) saying why.
  const shown = found.record.filter(
    (entry, index, all) =>
      entry.resolved_ref !== null ||
      (!all.some((other) => other.owner === entry.owner && other.scope === entry.scope && other.resolved_ref) &&
        all.findIndex((other) => other.owner === entry.owner && other.scope === entry.scope) === index),
  );
  return git.scratch(user.userId, async (cache) =>
    Promise.all(
      shown.map(async (entry) => {
        const at = found.repositories.findIndex((repository) => repository.source === entry.source);
        const repository = readable[at];
        if (entry.resolved_ref === null || !repository) {
          const why = `${entry.problem ?? 'not read'}: create it to give every conversation these skills (skills/<name>/SKILL.md)`;
          return rowOf(entry, [], [{ severity: 'warning', path: null, message: why }]);
        }
        const { user: own, organization } = await loadSkillRepositories([repository], { git: cache });
        const loaded = entry.scope === 'user' ? own : organization;
        const skills = loaded.skills.map((skill) => skill.name);
        const row = rowOf(
          entry,
          skills,
          loaded.problems
            .filter((problem) => problem.severity !== 'info')
            .map((problem) => ({
              severity: problem.severity === 'error' ? ('error' as const) : ('warning' as const),
              path: problem.file,
              message: problem.message,
            })),
        );
        return { ...row, disabled_skills: skills.filter((name) => disabled.has(name)) };
      }),
    ),
  );
}

function rowOf(entry: ConversationSkillRepository, skills: string[], problems: PluginProblem[]): SkillsTableRow {
  const name = entry.source.replace(/^[a-z]+:/, '');
  return {
    kind: 'skill_repository',
    name,
    description:
      entry.scope === 'organization'
        ? `The skills repository of the organization ${entry.owner}`
        : `Your skills repository (${entry.owner})`,
    origin: entry.scope === 'organization' ? 'organization_repository' : 'user_repository',
    scope: entry.scope === 'organization' ? 'organization' : 'personal',
    marketplace: name,
    source: entry.source,
    ref: null,
    resolved_ref: entry.resolved_ref,
    auto_load: entry.resolved_ref !== null,
    pending_ref: null,
    changes: null,
    skills,
    disabled_skills: [],
    commands: [],
    agents: [],
    hooks: [],
    mcp_servers: [],
    problems,
  };
}
