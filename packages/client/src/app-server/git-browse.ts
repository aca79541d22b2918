import type {
  BranchPage,
  GitOrganizationsResponse,
  InstallationPage,
  ProviderType,
  RepositoryPage,
  SortOrder,
  SuggestedTaskPage,
} from '@bosun/protocol';
import type { CallOptions } from '../http.ts';
import type { PageQuery } from './account.ts';
import { AppServerLlmProfiles } from './llm-profiles.ts';

/**
 * A search of the caller's repositories at a provider: GitHub, GitLab, Bitbucket Cloud or Bitbucket Data Center
 * (without `query`: their own; `installation_id`: a GitHub App installation, a GitLab group, a Bitbucket workspace
 * or a Data Center project key).
 */
export interface RepositorySearch extends PageQuery {
  provider: ProviderType;
  query?: string;
  installation_id?: string;
  sort_order?: SortOrder;
}

/** A search of a repository's branches (`query: ''`: every branch). */
export interface BranchSearch extends PageQuery {
  provider: ProviderType;
  /** `owner/repo` (GitLab: the project's full path; Bitbucket: `workspace/repo`; Data Center: `PROJECT/repo`). */
  repository: string;
  query: string;
}

/**
 * The caller's Git provider (GitHub, GitLab, Bitbucket Cloud, Bitbucket Data Center), read with the token they
 * stored, at the host it was stored with: repositories, branches, installations (GitLab: groups; Bitbucket:
 * workspaces; Data Center: projects), suggested tasks and organizations. A provider with no token stored, or
 * refusing it, is a 403 `BosunApiError`; a 429 when it rate-limits, a 502 when it is down. `AppServerClient` has
 * them all.
 */
export abstract class AppServerGitBrowse extends AppServerLlmProfiles {
  searchGitRepositories(search: RepositorySearch, options?: CallOptions): Promise<RepositoryPage> {
    return this.call('searchGitRepositories', { ...options, query: { ...search } });
  }
  searchGitBranches(search: BranchSearch, options?: CallOptions): Promise<BranchPage> {
    return this.call('searchGitBranches', { ...options, query: { ...search } });
  }
  searchGitInstallations(
    search: PageQuery & { provider: ProviderType },
    options?: CallOptions,
  ): Promise<InstallationPage> {
    return this.call('searchGitInstallations', { ...options, query: { ...search } });
  }
  /**
   * The caller's open pull (merge) requests, then the open issues assigned to them, of every connected GitHub,
   * GitLab and Bitbucket (Cloud, Data Center) account; one that cannot answer is left out of the others' tasks.
   */
  searchSuggestedTasks(search: PageQuery = {}, options?: CallOptions): Promise<SuggestedTaskPage> {
    return this.call('searchSuggestedTasks', { ...options, query: { ...search } });
  }
  /**
   * The organizations (GitLab: groups; Bitbucket: workspaces; Data Center: project keys) of the caller on their
   * first connected provider.
   */
  gitOrganizations(options?: CallOptions): Promise<GitOrganizationsResponse> {
    return this.call('gitOrganizations', options);
  }
}
