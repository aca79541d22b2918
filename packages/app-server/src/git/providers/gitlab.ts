import type { Repository, SuggestedTask } from '@bosun/protocol';
import { text } from './github.ts';
import { type ProviderHttp, getterOf, pageFrom, paging } from './http.ts';
import type { BranchSearch, GitAccount, GitProviderApi, PageAsk, RepositorySearch } from './types.ts';

interface GitLabProject {
  id: number;
  path_with_namespace: string;
  visibility?: string;
  star_count?: number;
  last_activity_at?: string | null;
  default_branch?: string | null;
  namespace?: { kind?: string };
}

interface GitLabItem {
  iid: number;
  title: string;
  references?: { full?: string };
}

const ORDERS = { stars: 'star_count', updated: 'last_activity_at' } as const;

/** GitLab's REST API v4 (`<gitlab>/api/v4`). */
export function gitLabApi(http: ProviderHttp): GitProviderApi {
  const get = getterOf(http);
  const opened = async (path: string, scope: string) =>
    (await get<GitLabItem[]>(path, { scope, state: 'opened', per_page: 100 })).body;
  return {
    async account(): Promise<GitAccount> {
      const { body } = await get<Record<string, unknown>>('/user');
      return {
        id: body.id === undefined ? null : String(body.id),
        login: text(body.username),
        avatar_url: text(body.avatar_url),
        name: text(body.name),
        email: text(body.email) ?? text(body.public_email),
        company: text(body.organization),
      };
    },

    async repositories({ query, installationId, sortOrder, ...page }: RepositorySearch) {
      const [field, direction] = (sortOrder ?? 'updated-desc').split('-') as [string, string];
      const order_by = ORDERS[field as keyof typeof ORDERS] ?? ORDERS.updated;
      const search = { search: query || undefined, order_by, sort: direction, ...paging(page) };
      const path =
        installationId === undefined ? '/projects' : `/groups/${encodeURIComponent(installationId)}/projects`;
      const membership = installationId === undefined ? { membership: 'true' } : { include_subgroups: 'true' };
      const { body, headers } = await get<GitLabProject[]>(path, { ...membership, ...search });
      return pageFrom(body, headers, project);
    },

    async branches({ repository, query, ...page }: BranchSearch) {
      const path = `/projects/${encodeURIComponent(repository)}/repository/branches`;
      const { body, headers } = await get<
        { name: string; protected?: boolean; commit: { id: string; committed_date?: string | null } }[]
      >(path, { search: query || undefined, ...paging(page) });
      return pageFrom(body, headers, (branch) => ({
        name: branch.name,
        commit_sha: branch.commit.id,
        protected: branch.protected ?? false,
        last_push_date: branch.commit.committed_date ?? null,
      }));
    },

    async installations(page: PageAsk) {
      const { body, headers } = await get<{ id: number }[]>('/groups', { min_access_level: 10, ...paging(page) });
      return pageFrom(body, headers, ({ id }) => String(id));
    },

    async suggestedTasks() {
      const merges = await opened('/merge_requests', 'created_by_me');
      const issues = await opened('/issues', 'assigned_to_me');
      const task = (task_type: SuggestedTask['task_type'], mark: string) => (item: GitLabItem) => ({
        git_provider: 'gitlab' as const,
        task_type,
        repo: (item.references?.full ?? '').split(mark)[0] ?? '',
        issue_number: item.iid,
        title: item.title,
      });
      return [...merges.map(task('OPEN_PR', '!')), ...issues.map(task('OPEN_ISSUE', '#'))];
    },

    async organizations() {
      const { body } = await get<{ full_path: string }[]>('/groups', { min_access_level: 10, per_page: 100 });
      return body.map(({ full_path }) => full_path);
    },
  };
}

function project(repo: GitLabProject): Repository {
  return {
    id: String(repo.id),
    full_name: repo.path_with_namespace,
    git_provider: 'gitlab',
    is_public: repo.visibility === 'public',
    stargazers_count: repo.star_count ?? null,
    link_header: null,
    pushed_at: repo.last_activity_at ?? null,
    owner_type: repo.namespace?.kind === 'group' ? 'organization' : 'user',
    main_branch: repo.default_branch ?? null,
  };
}
