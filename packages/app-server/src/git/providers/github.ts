import type { Branch, Repository, SuggestedTask } from '@bosun/protocol';
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

/** GitHub's REST API v3 (github.com's `api.github.com`, GitHub Enterprise's `/api/v3`). */
export function gitHubApi(http: ProviderHttp): GitProviderApi {
  const get = getterOf(http);
  const searchIssues = async (q: string) =>
    (await get<{ items: GitHubIssue[] }>('/search/issues', { q, per_page: 100 })).body.items;
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

    async branches({ repository: name, query, ...page }: BranchSearch) {
      const path = `/repos/${name.split('/').map(encodeURIComponent).join('/')}/branches`;
      const { body, headers } = await get<{ name: string; commit: { sha: string }; protected?: boolean }[]>(
        path,
        paging(page),
      );
      // GitHub's REST API has no branch search: each page of branches keeps those whose name holds the query.
      const matching = body.filter((branch) => branch.name.toLowerCase().includes(query.toLowerCase()));
      return pageFrom(
        matching,
        headers,
        (branch): Branch => ({
          name: branch.name,
          commit_sha: branch.commit.sha,
          protected: branch.protected ?? false,
          last_push_date: null,
        }),
      );
    },

    async installations(page: PageAsk) {
      const { body, headers } = await get<{ installations: { id: number }[] }>('/user/installations', paging(page));
      return pageFrom(body.installations, headers, ({ id }) => String(id));
    },

    async suggestedTasks() {
      const pulls = await searchIssues('is:open is:pr archived:false author:@me');
      const issues = await searchIssues('is:open is:issue archived:false assignee:@me');
      const task = (task_type: SuggestedTask['task_type']) => (issue: GitHubIssue) => ({
        git_provider: 'github' as const,
        task_type,
        repo: issue.repository_url.split('/').slice(-2).join('/'),
        issue_number: issue.number,
        title: issue.title,
      });
      return [...pulls.map(task('OPEN_PR')), ...issues.map(task('OPEN_ISSUE'))];
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
