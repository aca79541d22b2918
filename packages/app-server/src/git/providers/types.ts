import type {
  Branch,
  GitOrganizationsResponse,
  Repository,
  SortOrder,
  SuggestedTask,
  UserGitInfo,
} from '@bosun/protocol';

/** A page the provider answered: its items and the provider's number of the next page (null on the last). */
export interface ProviderPage<T> {
  items: T[];
  next_page_id: string | null;
}

/** Where a page starts (the provider's page number, as `next_page_id` gave it) and its size. */
export interface PageAsk {
  page: number;
  limit: number;
}

export interface RepositorySearch extends PageAsk {
  query?: string;
  installationId?: string;
  sortOrder?: SortOrder;
}

export interface BranchSearch extends PageAsk {
  /** `owner/repo` (GitLab: the project's full path). */
  repository: string;
  /** Part of the branches' names ('' : every branch). */
  query: string;
  /** The `next_page_id` as given, where the provider's is not a page number (GitHub: a GraphQL cursor). */
  cursor?: string;
}

/** The caller's account at the provider, the fields of `UserGitInfo` it fills. */
export type GitAccount = Pick<UserGitInfo, 'id' | 'login' | 'avatar_url' | 'name' | 'email' | 'company'>;

/** What the app asks a Git provider, with one user's token: each call is one or a few REST requests. */
export interface GitProviderApi {
  account(): Promise<GitAccount>;
  repositories(search: RepositorySearch): Promise<ProviderPage<Repository>>;
  branches(search: BranchSearch): Promise<ProviderPage<Branch>>;
  installations(page: PageAsk): Promise<ProviderPage<string>>;
  /** The open pull (merge) requests the user authored, then the open issues assigned to them (first 100 each). */
  suggestedTasks(): Promise<SuggestedTask[]>;
  organizations(): Promise<GitOrganizationsResponse['organizations']>;
}

/**
 * A provider's answer the app cannot pass on as a result: `status` and `detail` are what the caller gets
 * (never the token); `retryAfter` (seconds) goes with a 429.
 */
export class GitProviderError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 429 | 502,
    readonly detail: string,
    readonly retryAfter?: number,
  ) {
    super(detail);
    this.name = 'GitProviderError';
  }
}
