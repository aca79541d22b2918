import type { ProviderType } from '@bosun/protocol';

/** The providers whose organizations and users have skills repositories the app looks for. */
export const SKILL_REPOSITORY_PROVIDERS = ['github', 'gitlab', 'bitbucket'] as const;
export type SkillRepositoryProvider = (typeof SKILL_REPOSITORY_PROVIDERS)[number];

export const hasSkillRepositories = (provider: ProviderType | string): provider is SkillRepositoryProvider =>
  (SKILL_REPOSITORY_PROVIDERS as readonly string[]).includes(provider);

/**
 * The name of an owner's skills repository on each provider: `.agents`, or `bosun-config` where a repository's
 * name cannot begin with a period (GitLab, Bitbucket); and the legacy name, where there is one (older releases'
 * `.bosun`, which such hosts cannot have either).
 */
const NAMES: Record<SkillRepositoryProvider, { current: string; legacy: string | null }> = {
  github: { current: '.agents', legacy: '.bosun' },
  gitlab: { current: 'bosun-config', legacy: null },
  bitbucket: { current: 'bosun-config', legacy: null },
};

export type SkillRepositoryScope = 'organization' | 'user';

/** An owner whose skills repositories a start looks for. */
export interface SkillRepositoryOwner {
  provider: SkillRepositoryProvider;
  /** The organization, group (GitLab: its full path) or workspace, or the user's login. */
  owner: string;
  scope: SkillRepositoryScope;
}

/** One repository a start looks for. */
export interface SkillRepositoryCandidate extends SkillRepositoryOwner {
  name: string;
  legacy: boolean;
  /** `<provider>:<owner>/<name>`, as the agent takes it. */
  source: string;
}

/** The owner of `owner/repo` (GitLab: `group/subgroup/repo` is the subgroup's). */
export function ownerOf(repository: string): string | null {
  const parts = repository
    .replace(/\.git$/, '')
    .split('/')
    .filter(Boolean);
  return parts.length >= 2 ? parts.slice(0, -1).join('/') : null;
}

/**
 * Whose skills repositories a start looks for, in the order the agent ranks them within a scope (first wins): the
 * selected repository's owner when it is not the user themselves (an organization, group or workspace), then the
 * user's own account on that provider (when their login is known).
 */
export function ownersOf(
  provider: SkillRepositoryProvider,
  repository: string | null,
  login: string | null,
): SkillRepositoryOwner[] {
  const owners: SkillRepositoryOwner[] = [];
  const owner = repository ? ownerOf(repository) : null;
  if (owner && owner.toLowerCase() !== login?.toLowerCase()) owners.push({ provider, owner, scope: 'organization' });
  if (login) owners.push({ provider, owner: login, scope: 'user' });
  return owners;
}

/** The repositories of an owner: the current name first, then the legacy one. */
export function candidatesOf(owner: SkillRepositoryOwner): SkillRepositoryCandidate[] {
  const { current, legacy } = NAMES[owner.provider];
  const of = (name: string, isLegacy: boolean): SkillRepositoryCandidate => ({
    ...owner,
    name,
    legacy: isLegacy,
    source: `${owner.provider}:${owner.owner}/${name}`,
  });
  return [of(current, false), ...(legacy ? [of(legacy, true)] : [])];
}
