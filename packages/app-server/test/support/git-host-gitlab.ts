import { type HostAccount, type HostAnswer, type HostItem, type HostRepository, paged } from './git-host.ts';

/** GitLab's JSON for a project (the fields the app reads, and a few more as GitLab sends them). */
const project = (repo: HostRepository) => ({
  id: repo.id,
  name: repo.fullName.split('/').at(-1),
  path_with_namespace: repo.fullName,
  visibility: repo.private ? 'private' : 'public',
  star_count: repo.stars,
  last_activity_at: repo.pushedAt,
  default_branch: repo.defaultBranch,
  namespace: { kind: repo.ownerIsOrganization ? 'group' : 'user', full_path: repo.fullName.split('/')[0] },
});

const item = (mark: string) => (entry: HostItem) => ({
  iid: entry.number,
  title: entry.title,
  state: 'opened',
  references: { short: `${mark}${entry.number}`, full: `${entry.repo}${mark}${entry.number}` },
});

const list = (url: URL, items: unknown[]): HostAnswer => {
  const page = paged(url, items);
  return { status: 200, body: page.items, headers: page.headers };
};

/** The answer of GitLab's REST API v4 to `GET <path>` by the holder of `account`; undefined: a 404. */
export function gitLabAnswer(account: HostAccount, path: string, url: URL): HostAnswer | undefined {
  const search = (url.searchParams.get('search') ?? '').toLowerCase();
  const scope = url.searchParams.get('scope');
  if (path === '/user') {
    const { id, login: username, name, email, company: organization } = account;
    return {
      status: 200,
      body: { id, username, name, email, organization, avatar_url: `https://avatars.example/${username}` },
    };
  }
  if (path === '/projects') {
    const mine = url.searchParams.get('membership') === 'true' ? account.repositories : [];
    return list(url, mine.filter((repo) => repo.fullName.toLowerCase().includes(search)).map(project));
  }
  const group = /^\/groups\/(\d+)\/projects$/.exec(path);
  if (group)
    return list(url, account.repositories.filter((repo) => repo.installation === Number(group[1])).map(project));
  if (path === '/groups') {
    return list(
      url,
      account.installations.map((id, at) => ({ id, full_path: account.organizations[at] ?? `group-${id}` })),
    );
  }
  if (path === '/merge_requests' && scope === 'created_by_me') return list(url, account.pulls.map(item('!')));
  if (path === '/issues' && scope === 'assigned_to_me') return list(url, account.issues.map(item('#')));
  const branches = /^\/projects\/([^/]+)\/repository\/branches$/.exec(path);
  const repo = account.repositories.find((known) => known.fullName === decodeURIComponent(branches?.[1] ?? ''));
  if (repo) {
    const shown = repo.branches
      .filter((branch) => branch.name.toLowerCase().includes(search))
      .map(({ name, sha, protected: guarded, date }) => ({
        name,
        protected: guarded,
        commit: { id: sha, committed_date: date },
      }));
    return list(url, shown);
  }
  return undefined;
}
