import type { Repository, SuggestedTask } from '@bosun/protocol';
import { gitHubBranches } from './github-branches.ts';
import { gitHubPullRequestTasks } from './github-tasks.ts';
import { type ProviderHttp, getterOf, pageFrom, paging } from './http.ts';
import type { BranchSearch, GitAccount, GitProviderApi, PageAsk, RepositorySearch } from './types.ts';

interface GitHubRepository {
  id: number;
  full_name: string;
  private: boolean;
  stargazers_count?: number;
  pushed_at?: string | null;
  default_branch?: string;
  owner?: { type?: string };
}

interface GitHubIssue {
  number: number;
  title: string;
  repository_url: string;
}

const SORTS = { stars: 'stars', forks: 'forks', updated: 'updated' } as const;

/**
 * GitHub's REST API v3 (github.com's `api.github.com`, GitHub Enterprise's `/api/v3`), and its GraphQL API for what
 * REST cannot say in one request: branch search, and what the caller's open pull requests need.
 */
export function gitHubApi(http: ProviderHttp): GitProviderApi {
  const get = getterOf(http);
  /** The open issues assigned to the caller, in repositories that are not archived (the first 100). */
  const assignedIssues = async (): Promise<SuggestedTask[]> => {
    const q = 'is:open is:issue archived:false assignee:@me';
    const { body } = await get<{ items: GitHubIssue[] }>('/search/issues', { q, per_page: 100 });
    return body.items.map((issue) => ({
      git_provider: 'github',
      task_type: 'OPEN_ISSUE',
      repo: issue.repository_url.split('/').slice(-2).join('/'),
      issue_number: issue.number,
      title: issue.title,
    }));
  };
  return {
    async account(): Promise<GitAccount> {
      const { body } = await get<Record<string, unknown>>('/user');
      return {
        id: body.id === undefined ? null : String(body.id),
        login: text(body.login),
        avatar_url: text(body.avatar_url),
        name: text(body.name),
        email: text(body.email),
        company: text(body.company),
      };
    },

    async repositories({ query, installationId, sortOrder, ...page }: RepositorySearch) {
      const [field, direction] = (sortOrder ?? 'updated-desc').split('-') as [keyof typeof SORTS, string];
      if (installationId !== undefined) {
        const path = `/user/installations/${encodeURIComponent(installationId)}/repositories`;
        const { body, headers } = await get<{ repositories: GitHubRepository[] }>(path, paging(page));
        return pageFrom(body.repositories, headers, repository);
      }
      if (query) {
        const search = { q: query, sort: SORTS[field], order: direction, ...paging(page) };
        const { body, headers } = await get<{ items: GitHubRepository[] }>('/search/repositories', search);
        return pageFrom(body.items, headers, repository);
      }
      // The user's own list sorts by date only.
      const sort = { sort: 'pushed', direction: field === 'updated' ? direction : 'desc', ...paging(page) };
      const { body, headers } = await get<GitHubRepository[]>('/user/repos', sort);
      return pageFrom(body, headers, repository);
    },

    // GitHub's REST API has no branch search: its GraphQL API has.
    branches: (search: BranchSearch) => gitHubBranches(http, search),

    async installations(page: PageAsk) {
      const { body, headers } = await get<{ installations: { id: number }[] }>('/user/installations', paging(page));
      return pageFrom(body.installations, headers, ({ id }) => String(id));
    },

    async suggestedTasks() {
      const [pulls, issues] = await Promise.all([gitHubPullRequestTasks(http), assignedIssues()]);
      return [...pulls, ...issues];
    },

    async organizations() {
      const { body } = await get<{ login: string }[]>('/user/orgs', { per_page: 100 });
      return body.map(({ login }) => login);
    },
  };
}

function repository(repo: GitHubRepository): Repository {
  return {
    id: String(repo.id),
    full_name: repo.full_name,
    git_provider: 'github',
    is_public: !repo.private,
    stargazers_count: repo.stargazers_count ?? null,
    link_header: null,
    pushed_at: repo.pushed_at ?? null,
    owner_type: repo.owner?.type === 'Organization' ? 'organization' : 'user',
    main_branch: repo.default_branch ?? null,
  };
}

/** A string field of a provider's answer, else null. */
export const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
