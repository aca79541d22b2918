import type { AgentServerClient } from '@bosun/client';
import { GitHubAppError } from '../git/apps/github-app.ts';
import { tokenHostAdmit } from '../git/host-guard.ts';
import { GitProviderError, type ProviderAccess, gitProviderApi } from '../git/providers/index.ts';
import type { ConversationDeps } from './deps.ts';
import { type RepositoryToClone, StartError, cloneRepository } from './repository.ts';

type CloneDeps = Pick<ConversationDeps, 'gitUrls' | 'allowPrivateHosts' | 'githubApp'>;

/**
 * Clones the selected repository with the user's token (`cloneRepository`); when that fails for a GitHub
 * repository and a GitHub App is configured, with a token of the app's installation that owns it, for a user the
 * installation says may read it (their login, read with their own token): what they could read on GitHub, which
 * their token cannot. The installation token is pushed on `secrets` and, like the user's, reaches Git for the one
 * command that clones.
 */
export async function cloneSelected(
  agent: AgentServerClient,
  deps: CloneDeps,
  secrets: string[],
  clone: RepositoryToClone,
): Promise<string> {
  try {
    return await cloneRepository(agent, deps, clone);
  } catch (error) {
    if (!(error instanceof StartError) || clone.provider !== 'github' || !deps.githubApp) throw error;
    const access = await appAccess(deps, clone);
    if (!access) throw error;
    secrets.push(access.token, encodeURIComponent(access.token));
    return cloneRepository(agent, deps, { ...clone, access });
  }
}

/** The access of the installation that owns the repository, for a user it says may read it; else null. */
async function appAccess(deps: CloneDeps, clone: RepositoryToClone): Promise<ProviderAccess | null> {
  const { githubApp: app } = deps;
  const [owner, repo, ...deeper] = clone.repository.replace(/\.git$/, '').split('/');
  // The app reaches the configured GitHub only: a token stored for another host is not the app's.
  if (!app || !clone.access || clone.access.host || !owner || !repo || deeper.length > 0) return null;
  try {
    const reach = { urls: deps.gitUrls, admit: tokenHostAdmit(deps.allowPrivateHosts) };
    const { login } = await gitProviderApi('github', clone.access, reach).account();
    const token = login ? await app.readToken(owner, repo) : null;
    if (!login || !token || !(await app.mayRead(token, owner, repo, login))) return null;
    return { token: token.token, host: null };
  } catch (error) {
    // GitHub refused the app, or the user's login could not be read: the clone's own error stands.
    if (error instanceof GitHubAppError || error instanceof GitProviderError) return null;
    throw error;
  }
}
