import type { Repository, SuggestedTask } from '@bosun/protocol';
import { text } from './github.ts';
import { type ProviderHttp, getterOf, pageNumberOf } from './http.ts';
import type { BranchSearch, GitAccount, GitProviderApi, PageAsk, ProviderPage, RepositorySearch } from './types.ts';

/** Bitbucket Cloud's paginated answer: the page's `values`, and the whole URL of the next page when there is one. */
interface Paginated<T> {
  values: T[];
  next?: string;
}

interface BitbucketRepository {
  uuid: string;
  full_name: string;
  is_private?: boolean;
  updated_on?: string | null;
  mainbranch?: { name?: string } | null;
  owner?: { type?: string };
}

interface BitbucketItem {
  id: number;
  title: string;
}

/** How many repositories with an issue tracker are asked for the issues assigned to the user (latest updated). */
export const ISSUE_REPOSITORIES = 10;

/** A string as a literal of Bitbucket's filter language (`q`). */
const literal = (value: string) => `"${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
const pathOf = (fullName: string) => fullName.split('/').map(encodeURIComponent).join('/');
const paging = ({ page, limit }: PageAsk) => ({ page, pagelen: limit });
const pageOf = <T, W>(body: Paginated<T>, map: (item: T) => W): ProviderPage<W> => ({
  items: body.values.map(map),
  next_page_id: pageNumberOf(body.next),
});

/** Bitbucket Cloud's REST API 2.0 (`https://api.bitbucket.org/2.0`). */
export function bitbucketApi(http: ProviderHttp): GitProviderApi {
  const get = getterOf(http);
  const values = async <T>(path: string, query: Record<string, string | number | undefined>) =>
    (await get<Paginated<T>>(path, query)).body;
  const user = async () => (await get<Record<string, unknown>>('/user')).body;
  const workspaces = (page: PageAsk) =>
    values<{ workspace: { slug: string } }>('/user/permissions/workspaces', paging(page));

  return {
    async account(): Promise<GitAccount> {
      const body = await user();
      const emails = await values<{ email: string; is_primary?: boolean }>('/user/emails', { pagelen: 100 });
      const links = body.links as { avatar?: { href?: unknown } } | undefined;
      return {
        id: text(body.uuid) ?? text(body.account_id),
        login: text(body.username) ?? text(body.nickname),
        avatar_url: text(links?.avatar?.href),
        name: text(body.display_name),
        email: text((emails.values.find((email) => email.is_primary) ?? emails.values[0])?.email),
        company: null,
      };
    },

    async repositories({ query, installationId, sortOrder, ...page }: RepositorySearch) {
      // Bitbucket has neither stars nor forks: those orders keep the default, last updated first.
      const sort = sortOrder === 'updated-asc' ? 'updated_on' : '-updated_on';
      const path =
        installationId === undefined ? '/repositories' : `/repositories/${encodeURIComponent(installationId)}`;
      const q = query ? `name~${literal(query)}` : undefined;
      const body = await values<BitbucketRepository>(path, { role: 'member', q, sort, ...paging(page) });
      return pageOf(body, repository);
    },

    async branches({ repository: name, query, ...page }: BranchSearch) {
      const path = `/repositories/${pathOf(name)}/refs/branches`;
      const q = query ? `name~${literal(query)}` : undefined;
      const body = await values<{ name: string; target: { hash: string; date?: string | null } }>(path, {
        q,
        ...paging(page),
      });
      // Branch restrictions are a separate resource: a branch is not marked protected here.
      return pageOf(body, (branch) => ({
        name: branch.name,
        commit_sha: branch.target.hash,
        protected: false,
        last_push_date: branch.target.date ?? null,
      }));
    },

    async installations(page: PageAsk) {
      return pageOf(await workspaces(page), ({ workspace }) => workspace.slug);
    },

    async suggestedTasks() {
      const uuid = text((await user()).uuid);
      if (!uuid) return [];
      const pulls = await values<BitbucketItem & { destination?: { repository?: { full_name?: string } } }>(
        `/pullrequests/${encodeURIComponent(uuid)}`,
        { state: 'OPEN', pagelen: 50 },
      );
      const tracked = await values<BitbucketRepository>('/repositories', {
        role: 'member',
        q: 'has_issues=true',
        sort: '-updated_on',
        pagelen: ISSUE_REPOSITORIES,
      });
      const assigned = `assignee.uuid=${literal(uuid)} AND (state="new" OR state="open")`;
      const task = (task_type: SuggestedTask['task_type'], repo: string, item: BitbucketItem): SuggestedTask => ({
        git_provider: 'bitbucket',
        task_type,
        repo,
        issue_number: item.id,
        title: item.title,
      });
      const tasks = pulls.values.map((pull) => task('OPEN_PR', pull.destination?.repository?.full_name ?? '', pull));
      for (const { full_name } of tracked.values) {
        const issues = await values<BitbucketItem>(`/repositories/${pathOf(full_name)}/issues`, {
          q: assigned,
          pagelen: 50,
        });
        tasks.push(...issues.values.map((issue) => task('OPEN_ISSUE', full_name, issue)));
      }
      return tasks;
    },

    async organizations() {
      return (await workspaces({ page: 1, limit: 100 })).values.map(({ workspace }) => workspace.slug);
    },
  };
}

function repository(repo: BitbucketRepository): Repository {
  return {
    id: repo.uuid,
    full_name: repo.full_name,
    git_provider: 'bitbucket',
    is_public: repo.is_private === false,
    stargazers_count: null,
    link_header: null,
    pushed_at: repo.updated_on ?? null,
    owner_type: repo.owner?.type === 'team' ? 'organization' : 'user',
    main_branch: repo.mainbranch?.name ?? null,
  };
}
