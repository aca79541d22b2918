import type { AgentContext, ResolvedSkillRepository, SkillRepository } from '@bosun/protocol';
import type { GitCache } from '../git/cache.ts';
import type { GitProviders } from '../git/source.ts';
import { loadBuiltinSkills } from './builtin.ts';
import { mergeSkills } from './merge.ts';
import { loadProjectSkills } from './project.ts';
import { loadSkillRepositories } from './repositories.ts';
import type { LoadedSkills, SkillProblem, SkillScope } from './types.ts';

export interface SkillLoadOptions {
  /** The conversation's workspace: its repository's AGENTS.md and `.agents/skills/` (the project). */
  workspace: string;
  /** `agent.agent_context`; null or absent: the defaults (project skills only). */
  context?: AgentContext | null;
  /** Fetches skill repositories; without it, repositories are reported as not loaded. */
  git?: GitCache;
  providers?: GitProviders;
  secrets?: Readonly<Record<string, string>>;
  /** The repositories an earlier load resolved (see `loadSkillRepositories`). */
  recorded?: readonly ResolvedSkillRepository[];
  /** Extra repositories (the OpenHands `org_configs` of `POST /api/skills`), loaded after the context's. */
  extraRepositories?: readonly SkillRepository[];
  /** Load the built-in skills even when the context does not ask for them. */
  builtin?: boolean;
  /** Which scopes to load (default all). */
  scopes?: Partial<Record<'builtin' | 'user' | 'organization' | 'project', boolean>>;
}

export interface ConversationSkills extends LoadedSkills {
  /** Every repository asked for, with the commit loaded or why it was not. */
  repositories: ResolvedSkillRepository[];
  /** How many of the final skills came from each scope. */
  sources: Partial<Record<SkillScope, number>>;
}

/**
 * Everything a conversation loads, merged by precedence (lowest first): built-in, user repositories,
 * organization repositories, project; then `disabled_skills` are left out. Never throws for a skill or a
 * repository: each problem is in `problems`.
 */
export async function loadConversationSkills(options: SkillLoadOptions): Promise<ConversationSkills> {
  const context = options.context;
  const scopes = { builtin: true, user: true, organization: true, project: true, ...options.scopes };
  const problems: SkillProblem[] = [];
  const empty: LoadedSkills = { skills: [], problems: [] };

  const wantsBuiltin = scopes.builtin && (options.builtin ?? context?.load_builtin_skills ?? false);
  const repositories = [...(context?.skill_repositories ?? []), ...(options.extraRepositories ?? [])].filter(
    (repository) => (repository.scope === 'user' ? scopes.user : scopes.organization),
  );
  const wantsProject = scopes.project && (context?.load_project_skills ?? true);

  let fromRepositories = { user: empty, organization: empty, resolved: [] as ResolvedSkillRepository[] };
  if (repositories.length && options.git) {
    fromRepositories = await loadSkillRepositories(repositories, {
      git: options.git,
      ...(options.providers ? { providers: options.providers } : {}),
      ...(options.secrets ? { secrets: options.secrets } : {}),
      ...(options.recorded ? { recorded: options.recorded } : {}),
    });
  } else if (repositories.length) {
    for (const repository of repositories) {
      problems.push({
        file: repository.source,
        field: null,
        severity: 'error',
        message: 'is not loaded: this agent has no Git cache to fetch skill repositories',
        skipped: true,
      });
    }
  }
  const [builtin, project] = await Promise.all([
    wantsBuiltin ? loadBuiltinSkills() : empty,
    wantsProject ? loadProjectSkills(options.workspace) : empty,
  ]);
  const merged = mergeSkills(
    [builtin, fromRepositories.user, fromRepositories.organization, project],
    context?.disabled_skills ?? [],
  );
  const sources: Partial<Record<SkillScope, number>> = {};
  for (const skill of merged.skills) sources[skill.source.scope] = (sources[skill.source.scope] ?? 0) + 1;
  return {
    skills: merged.skills,
    problems: [...problems, ...merged.problems],
    repositories: fromRepositories.resolved,
    sources,
  };
}
