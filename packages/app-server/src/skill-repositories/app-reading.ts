import type { GitAuth, GitCache } from '@bosun/sources';
import { type GitHubApp, GitHubAppError, type InstallationToken } from '../git/apps/github-app.ts';
import { type ProviderAccess, type ProviderReach, gitProviderApi } from '../git/providers/index.ts';
import type { MarketplaceGit } from '../marketplaces/git-access.ts';
import type { SkillRepositoryCandidate } from './candidates.ts';
import type { Resolution } from './resolutions.ts';

/** A token of the app's installation that reads one repository for the user, or why there is none. */
export type AppToken = { token: InstallationToken } | { why: string };

const authOf = (token: InstallationToken): GitAuth => ({ username: 'x-access-token', password: token.token });

/**
 * The GitHub App reading an organization's skills repository in one user's stead, when their own token cannot:
 * only for a member of the organization (as the user's own token lists their organizations), and only with a token
 * of the installation that owns the repository, which reads that repository and nothing else.
 */
export class AppReader {
  private organizations: Promise<string[]> | undefined;

  constructor(
    private readonly app: GitHubApp,
    private readonly access: ProviderAccess | null,
    private readonly reach: ProviderReach,
  ) {}

  /** The credentials the app reads `owner/name` with for this user, or why it does not. */
  async token(owner: string, name: string): Promise<AppToken> {
    if (!this.access) return { why: 'not asked: it reads only for members of the organization, known by their token' };
    try {
      this.organizations ??= gitProviderApi('github', this.access, this.reach).organizations();
      const organizations = (await this.organizations).map((login) => login.toLowerCase());
      if (!organizations.includes(owner.toLowerCase())) {
        return { why: `not asked: your token does not say you are a member of ${owner}` };
      }
    } catch (error) {
      return { why: `not asked: your organizations were not read: ${messageOf(error)}` };
    }
    try {
      const token = await this.app.readToken(owner, name);
      if (token) return { token };
      const install = this.app.installUrl;
      return { why: `not installed on ${owner}/${name}${install ? ` (install it: ${install})` : ''}` };
    } catch (error) {
      if (error instanceof GitHubAppError) return { why: error.message };
      throw error;
    }
  }

  /**
   * `resolution` of an organization's repository the user's token could not read, read again with the app's
   * installation token: a cached token the host refuses (revoked, expired early) is minted again once.
   */
  async resolve(git: MarketplaceGit, cache: GitCache, resolution: Resolution): Promise<Resolution> {
    const { candidate } = resolution;
    const given = await this.token(candidate.owner, candidate.name);
    if ('why' in given) return { ...resolution, app: given.why };
    const read = (token: InstallationToken) => git.resolve(cache, candidate.source, null, authOf(token));
    let token = given.token;
    try {
      let sha: string;
      try {
        sha = await read(token);
      } catch (error) {
        if (token.fresh) throw error;
        token = await this.app.renewed(token, candidate.name);
        sha = await read(token);
      }
      return { ...resolution, sha, why: null, readWith: 'app_installation', app: null };
    } catch (error) {
      return { ...resolution, app: `its installation could not read it: ${hidden(error, token)}` };
    }
  }

  /** The Git credentials of the app for `candidate` now (null: none), each token pushed on `secrets`. */
  async credentials(candidate: Pick<SkillRepositoryCandidate, 'owner' | 'name'>): Promise<GitAuth | null> {
    const given = await this.token(candidate.owner, candidate.name);
    return 'token' in given ? authOf(given.token) : null;
  }
}

function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').trim();
}

const hidden = (error: unknown, token: InstallationToken) => messageOf(error).replaceAll(token.token, '***');
