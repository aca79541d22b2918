import type { AppConversationStartRequest } from '@bosun/protocol';
import type { FoundSkillRepositories, SkillRepositoryDiscovery } from './discovery.ts';

/**
 * The organization and user skills repositories of a start, each at the commit its default branch names now: of
 * the selected repository's provider (GitHub when the request names none), else of the request's `git_provider`,
 * else of every provider the user connected. What goes wrong is a problem of the start, never its failure (never
 * rejects).
 */
export async function startSkillRepositories(
  discovery: Pick<SkillRepositoryDiscovery, 'find'> | undefined,
  userId: string,
  request: Pick<AppConversationStartRequest, 'selected_repository' | 'git_provider'>,
): Promise<FoundSkillRepositories> {
  const none: FoundSkillRepositories = { repositories: [], record: [], problems: [] };
  if (!discovery) return none;
  const repository = request.selected_repository ?? null;
  const provider = request.git_provider ?? (repository ? 'github' : null);
  try {
    return await discovery.find({ userId, provider, repository });
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return { ...none, problems: [`skills repositories: none looked for: ${why}`] };
  }
}
