import type { HostAccount, HostAnswer, HostRepository } from './git-host.ts';

/** A page as Bitbucket Data Center pages: `start`/`limit` asked; `isLastPage` and `nextPageStart` answered. */
const list = (url: URL, items: unknown[]): HostAnswer => {
  const start = Math.max(0, Number(url.searchParams.get('start') ?? 0));
  const limit = Math.min(1000, Math.max(1, Number(url.searchParams.get('limit') ?? 25)));
  const values = items.slice(start, start + limit);
  const isLastPage = start + limit >= items.length;
  const body = { size: values.length, limit, start, isLastPage, values };
  return { status: 200, body: isLastPage ? body : { ...body, nextPageStart: start + limit } };
};

const owner = (repo: HostRepository) => repo.fullName.split('/')[0];
const slug = (repo: HostRepository) => repo.fullName.split('/')[1];

/** Data Center's JSON for a repository: `PROJECT/slug`, a personal project for a user's own. */
const repository = (repo: HostRepository) => ({
  id: repo.id,
  slug: slug(repo),
  name: slug(repo),
  public: !repo.private,
  project: { key: owner(repo), type: repo.ownerIsOrganization ? 'NORMAL' : 'PERSONAL' },
});

const holds = (name: string | undefined, part: string | null) =>
  (name ?? '').toLowerCase().includes((part ?? '').toLowerCase());

/** The answer of Bitbucket Data Center's REST API 1.0 to `GET <path>` by the holder of `account`; undefined: 404. */
export function bitbucketDataCenterAnswer(account: HostAccount, path: string, url: URL): HostAnswer | undefined {
  if (path === '/application-properties') {
    const body = { version: '8.19.0', buildNumber: '8019000', displayName: 'Bitbucket' };
    return { status: 200, body, headers: { 'x-ausername': account.login, 'x-auserid': String(account.id) } };
  }
  if (path === `/users/${account.login}`) {
    const { id, login, name: displayName, email: emailAddress } = account;
    return {
      status: 200,
      body: { name: login, slug: login, id, displayName, emailAddress, active: true, type: 'NORMAL' },
    };
  }
  if (path === '/projects')
    return list(
      url,
      account.organizations.map((key, at) => ({ key, id: at + 1, name: key })),
    );
  if (path === '/repos') {
    const named = account.repositories.filter((repo) => holds(slug(repo), url.searchParams.get('name')));
    return list(url, named.map(repository));
  }
  if (path === '/dashboard/pull-requests') {
    const mine = url.searchParams.get('role') === 'AUTHOR' && url.searchParams.get('state') === 'OPEN';
    const pulls = (mine ? account.pulls : []).map((pull) => {
      const repo = account.repositories.find((known) => known.fullName === pull.repo);
      return {
        id: pull.number,
        title: pull.title,
        state: 'OPEN',
        toRef: { id: 'refs/heads/main', repository: repo && repository(repo) },
      };
    });
    return list(url, pulls);
  }
  const [, key = '', name, resource] = /^\/projects\/([^/]+)\/repos(?:\/([^/]+)\/(branches))?$/.exec(path) ?? [];
  const inProject = account.repositories.filter((repo) => owner(repo) === decodeURIComponent(key));
  if (!resource) return key ? list(url, inProject.map(repository)) : undefined;
  const repo = inProject.find((known) => slug(known) === decodeURIComponent(name ?? ''));
  if (!repo) return undefined;
  const branches = repo.branches
    .filter((branch) => holds(branch.name, url.searchParams.get('filterText')))
    .map((branch) => ({
      id: `refs/heads/${branch.name}`,
      displayId: branch.name,
      latestCommit: branch.sha,
      isDefault: branch.name === repo.defaultBranch,
    }));
  return list(url, branches);
}
