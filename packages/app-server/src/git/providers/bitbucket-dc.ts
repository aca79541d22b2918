import type { Repository } from '@bosun/protocol';
import { text } from './github.ts';
import { type ProviderHttp, getterOf } from './http.ts';
import type { BranchSearch, GitAccount, GitProviderApi, PageAsk, ProviderPage, RepositorySearch } from './types.ts';

/** Bitbucket Data Center's page: its `values`, and whether it is the last. */
interface Paged<T> {
  values: T[];
  isLastPage?: boolean;
}

interface DataCenterRepository {
  id: number;
  slug: string;
  public?: boolean;
  project: { key: string; type?: string };
}

/** Our page numbers as Data Center's offsets (`start`, `limit`). */
const paging = ({ page, limit }: PageAsk) => ({ start: (page - 1) * limit, limit });
const pageOf = <T, W>(body: Paged<T>, { page }: PageAsk, map: (item: T) => W): ProviderPage<W> => ({
  items: body.values.map(map),
  next_page_id: body.isLastPage === false ? String(page + 1) : null,
});

/** `PROJECT/repo` as Data Center's path `/projects/PROJECT/repos/repo`. */
function repositoryPath(fullName: string): string {
  const [project = '', slug = ''] = fullName.split('/');
  return `/projects/${encodeURIComponent(project)}/repos/${encodeURIComponent(slug)}`;
}

/** Bitbucket Server / Data Center's REST API 1.0 (`<host>/rest/api/1.0`); repositories are `PROJECT/repo`. */
export function bitbucketDataCenterApi(http: ProviderHttp): GitProviderApi {
  const get = getterOf(http);
  const values = async <T>(path: string, query: Record<string, string | number | undefined>) =>
    (await get<Paged<T>>(path, query)).body;
  const projects = (page: PageAsk) => values<{ key: string }>('/projects', paging(page));
  /** The token's user: Data Center names it in the `X-AUSERNAME` header of every authenticated answer. */
  const userSlug = async () => {
    const { headers } = await get<unknown>('/application-properties');
    return headers.get('x-ausername');
  };

  return {
    async account(): Promise<GitAccount> {
      const slug = await userSlug();
      if (!slug) return { id: null, login: null, avatar_url: null, name: null, email: null, company: null };
      const { body } = await get<Record<string, unknown>>(`/users/${encodeURIComponent(slug)}`);
      return {
        id: body.id === undefined ? null : String(body.id),
        login: text(body.slug) ?? slug,
        avatar_url: null,
        name: text(body.displayName),
        email: text(body.emailAddress),
        company: null,
      };
    },

    async repositories({ query, installationId, ...page }: RepositorySearch) {
      // Data Center lists repositories by project and name only: `sort_order` keeps its order.
      const path = installationId === undefined ? '/repos' : `/projects/${encodeURIComponent(installationId)}/repos`;
      const search = installationId === undefined ? { name: query || undefined, permission: 'REPO_READ' } : {};
      const body = await values<DataCenterRepository>(path, { ...search, ...paging(page) });
      const named = installationId !== undefined && query ? matching(body, query) : body;
      return pageOf(named, page, repository);
    },

    async branches({ repository: name, query, ...page }: BranchSearch) {
      const path = `${repositoryPath(name)}/branches`;
      const body = await values<{ displayId: string; latestCommit: string }>(path, {
        filterText: query || undefined,
        ...paging(page),
      });
      return pageOf(body, page, (branch) => ({
        name: branch.displayId,
        commit_sha: branch.latestCommit,
        protected: false,
        last_push_date: null,
      }));
    },

    async installations(page: PageAsk) {
      return pageOf(await projects(page), page, ({ key }) => key);
    },

    async suggestedTasks() {
      // Data Center has no issue tracker (its issues are Jira's): only the open pull requests the user authored.
      const pulls = await values<{ id: number; title: string; toRef: { repository: DataCenterRepository } }>(
        '/dashboard/pull-requests',
        { role: 'AUTHOR', state: 'OPEN', limit: 100 },
      );
      return pulls.values.map((pull) => ({
        git_provider: 'bitbucket_data_center' as const,
        task_type: 'OPEN_PR' as const,
        repo: fullName(pull.toRef.repository),
        issue_number: pull.id,
        title: pull.title,
      }));
    },

    async organizations() {
      return (await projects({ page: 1, limit: 100 })).values.map(({ key }) => key);
    },
  };
}

/** A project's page kept to the repositories whose slugs hold `query` (that list has no name filter). */
const matching = (body: Paged<DataCenterRepository>, query: string) => ({
  ...body,
  values: body.values.filter((repo) => repo.slug.toLowerCase().includes(query.toLowerCase())),
});

const fullName = (repo: DataCenterRepository) => `${repo.project.key}/${repo.slug}`;

function repository(repo: DataCenterRepository): Repository {
  return {
    id: String(repo.id),
    full_name: fullName(repo),
    git_provider: 'bitbucket_data_center',
    is_public: repo.public === true,
    stargazers_count: null,
    link_header: null,
    pushed_at: null,
    owner_type: repo.project.type === 'PERSONAL' ? 'user' : 'organization',
    main_branch: null,
  };
}
