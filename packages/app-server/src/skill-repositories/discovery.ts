import type { ConversationSkillRepository, SkillRepository } from '@bosun/protocol';
import type { GitAuth, GitCache } from '@bosun/sources';
import type { GitHubApp } from '../git/apps/github-app.ts';
import { HostRefusedError, tokenHostAdmit } from '../git/host-guard.ts';
import { type GitProviderUrls, gitUrlsOf } from '../git/provider-urls.ts';
import { type ProviderAccess, gitProviderApi, providerHost } from '../git/providers/index.ts';
import type { ProviderTokenReader } from '../git/token-renewal.ts';
import { type MarketplaceGit, sourcesLibrary } from '../marketplaces/git-access.ts';
import { AppReader } from './app-reading.ts';
import {
  type SkillRepositoryOwner,
  type SkillRepositoryProvider,
  candidatesOf,
  hasSkillRepositories,
  ownersOf,
} from './candidates.ts';
import { type Resolution, ownerProblem, recordOf } from './resolutions.ts';

/** What a start found: the repositories for its agent (each at a commit), the record of all, the problems. */
export interface FoundSkillRepositories {
  /** For the agent server (`agent_context.skill_repositories`), each pinned to the commit resolved now. */
  repositories: SkillRepository[];
  /** Every repository looked for, with its commit or why it was skipped (kept with the conversation). */
  record: ConversationSkillRepository[];
  /** One line per owner none of whose repositories could be read (the start task's problems). */
  problems: string[];
}

export interface SkillRepositoryDiscoveryDeps {
  git: MarketplaceGit;
  gitUrls: GitProviderUrls;
  gitTokens: ProviderTokenReader;
  allowPrivateHosts?: boolean;
  /** The GitHub App that reads an organization's repository for its members when their own token cannot. */
  githubApp?: GitHubApp | undefined;
}

/** What the discovery needs besides Git, from the server's configuration (its providers' URLs) and services. */
export function discoverySettingsOf(
  config: Parameters<typeof gitUrlsOf>[0] & { git_allow_private_hosts?: boolean },
  gitTokens: ProviderTokenReader,
  githubApp: GitHubApp | undefined,
): Omit<SkillRepositoryDiscoveryDeps, 'git'> {
  return { gitUrls: gitUrlsOf(config), gitTokens, allowPrivateHosts: config.git_allow_private_hosts, githubApp };
}

/** What a start asks for: the provider and selected repository of the conversation (if any). */
export interface SkillRepositoryQuery {
  userId: string;
  /** The conversation's provider; null without a selected repository: every provider the user connected. */
  provider: string | null;
  repository: string | null;
}

/** The user name each provider's Git endpoint takes beside a bare token (as the agent sends it from its secrets). */
const TOKEN_USER: Record<SkillRepositoryProvider, string> = {
  github: 'x-access-token',
  gitlab: 'oauth2',
  bitbucket: 'x-token-auth',
};

const none = (): FoundSkillRepositories => ({ repositories: [], record: [], problems: [] });

/**
 * The organization and user skills repositories of a conversation's start. For the selected repository's owner
 * (when it is not the user) and for the user's own account on that provider, `.agents` (`bosun-config` on GitLab
 * and Bitbucket) and the legacy `.bosun` are resolved once, each to its default branch's commit, with the
 * credentials of that owner's provider only: the user's token for it, sent to that provider's configured host and
 * nowhere else (no other provider's token, no generic one). Without a selected repository, the user's own of each
 * provider they connected. One that cannot be read is skipped, never a failed start.
 */
export class SkillRepositoryDiscovery {
  constructor(private readonly deps: SkillRepositoryDiscoveryDeps) {}

  async find(query: SkillRepositoryQuery): Promise<FoundSkillRepositories> {
    const providers = query.provider
      ? [query.provider]
      : (await this.deps.gitTokens.list(query.userId)).map(({ provider }) => provider);
    const found = await Promise.all(
      providers
        .filter(hasSkillRepositories)
        .map((provider) => this.findOf(query.userId, provider, query.provider ? query.repository : null)),
    );
    return {
      repositories: found.flatMap((f) => f.repositories),
      record: found.flatMap((f) => f.record),
      problems: found.flatMap((f) => f.problems),
    };
  }

  /**
   * `repositories` as the agent server reads them for this user now: each of a provider they hold a token for as
   * its Git URL with that token in it (the agent server uses it, never shows it), or, for one the start's `record`
   * says the GitHub App read, a token of the app's installation (while the user is still a member of its owner);
   * the tokens are pushed on `secrets`.
   */
  async withCredentials(
    userId: string,
    repositories: readonly SkillRepository[],
    secrets: string[],
    record: readonly ConversationSkillRepository[] = [],
  ): Promise<SkillRepository[]> {
    const { repositoryUrl } = await sourcesLibrary();
    const byApp = new Set(record.filter((r) => r.read_with === 'app_installation').map((r) => r.source));
    let reader: AppReader | undefined;
    return Promise.all(
      repositories.map(async (repository) => {
        const provider = /^([a-z]+):/.exec(repository.source)?.[1] ?? '';
        if (!hasSkillRepositories(provider)) return repository;
        const access = await this.accessOf(userId, provider);
        // A token stored for another host than the configured provider's is never sent to it.
        if (access && this.storedForAnotherHost(provider, access)) return repository;
        const [owner, name] = splitSource(repository.source);
        const app = this.deps.githubApp;
        let auth = this.authOf(provider, access);
        if (app && provider === 'github' && byApp.has(repository.source)) {
          reader ??= new AppReader(app, access, this.reachOf());
          auth = (await reader.credentials({ owner, name })) ?? undefined;
        }
        if (!auth) return repository;
        secrets.push(auth.password, encodeURIComponent(auth.password));
        const url = new URL(repositoryUrl(repository.source, this.deps.gitUrls));
        url.username = encodeURIComponent(auth.username ?? '');
        url.password = encodeURIComponent(auth.password);
        return { ...repository, source: `${url}` };
      }),
    );
  }

  private async findOf(
    userId: string,
    provider: SkillRepositoryProvider,
    repository: string | null,
  ): Promise<FoundSkillRepositories> {
    // The server reads repositories over HTTP(S) only: a provider configured as a mirror on disk has no owners.
    if (!/^https?:\/\//i.test(this.deps.gitUrls[provider])) return none();
    const access = await this.accessOf(userId, provider);
    if (access && this.storedForAnotherHost(provider, access)) {
      const problem = `skills repositories of ${provider}: not looked for: your token is for ${access.host}, not the configured ${provider} host`;
      return { ...none(), problems: [problem] };
    }
    const hidden = (error: unknown) => (access ? why(error).replaceAll(access.token, '***') : why(error));
    let login: string | null = null;
    const problems: string[] = [];
    if (access) {
      try {
        login = (await gitProviderApi(provider, access, this.reachOf()).account()).login;
      } catch (error) {
        problems.push(
          `user skills repository (${provider}): not looked for: your login was not read: ${hidden(error)}`,
        );
      }
    }
    const owners = ownersOf(provider, repository, login);
    if (owners.length === 0) return { ...none(), problems };
    const auth = this.authOf(provider, access);
    const resolved = await this.deps.git.scratch(userId, async (cache) => {
      const byUser = await Promise.all(
        owners.flatMap(candidatesOf).map(async (candidate): Promise<Resolution> => {
          const unread = { candidate, sha: null, readWith: null, app: null };
          try {
            const sha = await this.deps.git.resolve(cache, candidate.source, null, auth);
            return { ...unread, sha, why: null, refused: false, readWith: access ? 'user_token' : 'anonymous' };
          } catch (error) {
            return { ...unread, why: hidden(error), refused: error instanceof HostRefusedError };
          }
        }),
      );
      return this.throughApp(provider, access, cache, byUser);
    });
    return {
      repositories: resolved.flatMap(({ candidate, sha }) =>
        sha ? [{ source: candidate.source, scope: candidate.scope, ref: sha }] : [],
      ),
      record: resolved.map((resolution) => recordOf(resolution, !!access)),
      problems: [...problems, ...owners.flatMap((owner) => ownerProblem(owner, resolved, !!access))],
    };
  }

  /** The organization's repositories the user's token could not read, read again by the GitHub App where it may. */
  private async throughApp(
    provider: SkillRepositoryProvider,
    access: ProviderAccess | null,
    cache: GitCache,
    resolved: Resolution[],
  ): Promise<Resolution[]> {
    const app = this.deps.githubApp;
    const unread = (r: Resolution) => !r.sha && !r.refused && r.candidate.scope === 'organization';
    if (!app || provider !== 'github' || !resolved.some(unread)) return resolved;
    const reader = new AppReader(app, access, this.reachOf());
    return Promise.all(resolved.map((r) => (unread(r) ? reader.resolve(this.deps.git, cache, r) : r)));
  }

  /** How the provider's API is reached with a user's token (a token's own host only at admitted addresses). */
  private reachOf() {
    return { urls: this.deps.gitUrls, admit: tokenHostAdmit(this.deps.allowPrivateHosts) };
  }

  /** Whether the token was stored for a host other than the configured provider's (or one that is no host). */
  private storedForAnotherHost(provider: SkillRepositoryProvider, access: ProviderAccess): boolean {
    try {
      return providerHost(provider, access.host, this.deps.gitUrls).own;
    } catch {
      return true;
    }
  }

  private async accessOf(userId: string, provider: SkillRepositoryProvider): Promise<ProviderAccess | null> {
    return (await this.deps.gitTokens.token(userId, provider)) ?? null;
  }

  /** The Git credentials of a provider's token (a Bitbucket `user:app-password` as it is). */
  private authOf(provider: SkillRepositoryProvider, access: ProviderAccess | null): GitAuth | undefined {
    if (!access) return undefined;
    const { token } = access;
    const colon = token.indexOf(':');
    if (provider === 'bitbucket' && colon > 0) {
      return { username: token.slice(0, colon), password: token.slice(colon + 1) };
    }
    return { username: TOKEN_USER[provider], password: token };
  }
}

/** The owner and name of `<provider>:<owner>/<name>` (GitLab: the owner is the group's full path). */
function splitSource(source: string): [string, string] {
  const path = source.slice(source.indexOf(':') + 1);
  const slash = path.lastIndexOf('/');
  return [path.slice(0, slash), path.slice(slash + 1)];
}

function why(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').trim();
}
