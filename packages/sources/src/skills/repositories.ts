import { join } from 'node:path';
import type { ResolvedSkillRepository, SkillRepository } from '@bosun/protocol';
import { gitAuthFromSecrets } from '../git/auth.ts';
import type { GitCache } from '../git/cache.ts';
import { redactCredentials } from '../git/redact.ts';
import { type GitProviders, repositoryUrl } from '../git/source.ts';
import { loadSkillDirectory } from './directory.ts';
import { firstWins } from './merge.ts';
import type { LoadedSkills, Skill, SkillProblem } from './types.ts';

/** The legacy name of an organization's or user's configuration repository (before `.agents`). */
export const LEGACY_REPOSITORY = '.bosun';

export interface RepositoryLoadOptions {
  git: GitCache;
  providers?: GitProviders;
  /** The conversation's secrets: `GITHUB_TOKEN` and friends authenticate fetches. */
  secrets?: Readonly<Record<string, string>>;
  /**
   * What an earlier load resolved (kept in the conversation): each repository is loaded at the same commit, and
   * one that could not be loaded then is not tried again, so a conversation always sees the same skills.
   */
  recorded?: readonly ResolvedSkillRepository[];
}

export interface RepositorySkills {
  user: LoadedSkills;
  organization: LoadedSkills;
  resolved: ResolvedSkillRepository[];
}

interface Fetched {
  repository: ResolvedSkillRepository;
  legacy: boolean;
  loaded: LoadedSkills;
}

/**
 * The skills of organization and user skills repositories: `skills/<name>/SKILL.md` in a repository named
 * `.agents` (or `bosun-config`) and in the legacy `.bosun`. Within a scope, the first repository listed wins a
 * name; a name defined both in a current and in a legacy repository is an error naming both files, and the
 * current one is used. A repository that cannot be fetched is a problem, never a failure.
 */
export async function loadSkillRepositories(
  repositories: readonly SkillRepository[],
  options: RepositoryLoadOptions,
): Promise<RepositorySkills> {
  const fetched = await Promise.all(repositories.map((repository) => fetchOne(repository, options)));
  return {
    user: combine(fetched.filter((f) => f.repository.scope === 'user')),
    organization: combine(fetched.filter((f) => f.repository.scope === 'organization')),
    resolved: fetched.map((f) => f.repository),
  };
}

async function fetchOne(repository: SkillRepository, options: RepositoryLoadOptions): Promise<Fetched> {
  const { source, scope } = repository;
  const ref = repository.ref ?? null;
  const shown = redactCredentials(source);
  const resolved: ResolvedSkillRepository = { source, scope, ref, url: null, resolved_ref: null, error: null };
  const failed = (message: string): Fetched => {
    resolved.error = message;
    const problem: SkillProblem = { file: shown, field: null, severity: 'error', message, skipped: true };
    return { repository: resolved, legacy: false, loaded: { skills: [], problems: [problem] } };
  };
  let url: string;
  try {
    url = repositoryUrl(source, options.providers);
  } catch (error) {
    return failed(redactCredentials((error as Error).message));
  }
  resolved.url = redactCredentials(url);
  const legacy = repositoryName(url) === LEGACY_REPOSITORY;
  const earlier = options.recorded?.find((r) => r.source === source && r.scope === scope && r.ref === ref);
  if (earlier && earlier.resolved_ref === null) {
    return failed(`was not available when the conversation started: ${earlier.error ?? 'unknown error'}`);
  }
  try {
    const auth = gitAuthFromSecrets(url, options.secrets ?? {}, options.providers);
    // The URL, not the source: `providers` may differ from the cache's own.
    const checkout = await options.git.checkout(url, earlier?.resolved_ref ?? ref, auth);
    resolved.resolved_ref = checkout.sha;
    const origin = `${resolved.url}@${checkout.sha.slice(0, 12)}`;
    const loaded = await loadSkillDirectory(join(checkout.dir, 'skills'), {
      scope,
      origin,
      repository: redactCredentials(source),
      commit: checkout.sha,
    });
    if (loaded.skills.length === 0 && loaded.problems.length === 0) {
      loaded.problems.push({
        file: origin,
        field: null,
        severity: 'warning',
        message: 'has no skills (expected skills/<name>/SKILL.md)',
      });
    }
    return { repository: resolved, legacy, loaded };
  } catch (error) {
    return failed(
      `cannot be fetched: ${redactCredentials((error as Error).message)
        .replace(/\s+/g, ' ')
        .trim()}`,
    );
  }
}

/** One scope's skills: current repositories first (first listed wins), then legacy ones for names not taken. */
function combine(fetched: readonly Fetched[]): LoadedSkills {
  const current = firstWins(fetched.filter((f) => !f.legacy).map((f) => f.loaded));
  const legacy = firstWins(fetched.filter((f) => f.legacy).map((f) => f.loaded));
  const byName = new Map(current.skills.map((skill) => [skill.name, skill]));
  const skills: Skill[] = [...current.skills];
  const problems = [...current.problems, ...legacy.problems];
  for (const skill of legacy.skills) {
    const winner = byName.get(skill.name);
    if (!winner) {
      skills.push(skill);
      continue;
    }
    problems.push({
      file: skill.file,
      field: 'name',
      severity: 'error',
      message: `skill '${skill.name}' is defined both in ${winner.file} (${winner.source.origin}) and in the legacy repository's ${skill.file} (${skill.source.origin}); a name must be defined in one of them only. The first is used.`,
      skipped: true,
    });
  }
  return { skills, problems };
}

/** The last path segment of a Git URL without `.git`: `https://host/acme/.agents.git` -> `.agents`. */
export function repositoryName(url: string): string {
  const path = url.replace(/[?#].*$/, '').replace(/\/+$/, '');
  const last = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf(':')) + 1);
  return last.replace(/\.git$/, '');
}
