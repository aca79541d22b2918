import type { ConversationSkillRepository } from '@bosun/protocol';
import type { SkillRepositoryCandidate, SkillRepositoryOwner } from './candidates.ts';

export type ReadWith = NonNullable<ConversationSkillRepository['read_with']>;

/** How one candidate repository was looked for. */
export interface Resolution {
  candidate: SkillRepositoryCandidate;
  sha: string | null;
  why: string | null;
  /** The server may not fetch from its host (the host guard said why). */
  refused: boolean;
  /** What read it (null: it was not read). */
  readWith: ReadWith | null;
  /** Why the GitHub App did not read it in the user's stead (null: it was not asked to). */
  app: string | null;
}

export function recordOf(resolution: Resolution, withToken: boolean): ConversationSkillRepository {
  const { candidate, sha, readWith } = resolution;
  return {
    source: candidate.source,
    scope: candidate.scope,
    owner: candidate.owner,
    resolved_ref: sha,
    problem: sha ? null : skipped(resolution, withToken),
    ...(sha && readWith ? { read_with: readWith } : {}),
  };
}

/** A line for an owner none of whose skills repositories could be read. */
export function ownerProblem(
  owner: SkillRepositoryOwner,
  resolved: readonly Resolution[],
  withToken: boolean,
): string[] {
  const of = resolved.filter(({ candidate }) => candidate.owner === owner.owner && candidate.scope === owner.scope);
  if (of.some(({ sha }) => sha)) return [];
  const names = of.map(({ candidate }) => candidate.source).join(' and ');
  const [first] = of;
  const why = first ? skipped(first, withToken) : 'not looked for';
  return [`${owner.scope} skills repository of ${owner.owner}: skipped: ${names}: ${why}`];
}

/**
 * Why a repository was skipped: the host may not be asked, or it has no such repository the token can read (nor
 * the GitHub App, when it was asked).
 */
function skipped({ candidate, why, refused, app }: Resolution, withToken: boolean): string {
  if (refused) return `not read: ${why}`;
  const { provider } = candidate;
  const access = withToken ? `your ${provider} token cannot read it` : `it is not readable without a ${provider} token`;
  return `no such repository, or ${access}${why ? ` (${why})` : ''}${app ? `; the GitHub App: ${app}` : ''}`;
}
