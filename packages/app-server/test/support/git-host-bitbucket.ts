import { type HostAccount, type HostAnswer, type HostItem, type HostRepository, paged } from './git-host.ts';

/** The account's Bitbucket uuid, braces included as Bitbucket writes it. */
export const bitbucketUuid = (account: Pick<HostAccount, 'id'>) =>
  `{00000000-0000-4000-8000-${`${account.id}`.padStart(12, '0')}}`;

/** Whether a repository has Bitbucket's issue tracker: here, those with issues assigned to the account. */
const tracks = (account: HostAccount, repo: HostRepository) =>
  account.issues.some((issue) => issue.repo === repo.fullName);

/** Bitbucket's JSON for a repository (the fields the app reads, and a few more as Bitbucket sends them). */
const repository = (account: HostAccount) => (repo: HostRepository) => ({
  type: 'repository',
  uuid: `{repo-${repo.id}}`,
  full_name: repo.fullName,
  name: repo.fullName.split('/')[1],
  is_private: repo.private,
  updated_on: repo.pushedAt,
  mainbranch: { type: 'branch', name: repo.defaultBranch },
  has_issues: tracks(account, repo),
  owner: { type: repo.ownerIsOrganization ? 'team' : 'user', display_name: repo.fullName.split('/')[0] },
  workspace: { type: 'workspace', slug: repo.fullName.split('/')[0] },
});

/** A paginated answer as Bitbucket sends it: `pagelen`/`page` asked, the next page's whole URL in the body. */
const list = (url: URL, items: unknown[]): HostAnswer => {
  const page = paged(url, items, 'pagelen');
  const body = { size: items.length, page: page.page, pagelen: page.perPage, values: page.items };
  return { status: 200, body: page.next ? { ...body, next: page.next } : body };
};

/** The quoted value of `field ~ "..."` or `field = "..."` in a `q` filter (quotes unescaped), else undefined. */
const filtered = (q: string, field: string) => {
  const match = new RegExp(`${field.replace('.', '\\.')}\\s*[~=]\\s*"((?:[^"\\\\]|\\\\.)*)"`).exec(q);
  return match?.[1]?.replace(/\\(.)/g, '$1');
};

const byName = (q: string) => (repo: HostRepository) =>
  (repo.fullName.split('/')[1] ?? '').toLowerCase().includes((filtered(q, 'name') ?? '').toLowerCase());

/** The answer of Bitbucket Cloud's REST API 2.0 to `GET <path>` by the holder of `account`; undefined: a 404. */
export function bitbucketAnswer(account: HostAccount, path: string, url: URL): HostAnswer | undefined {
  const q = url.searchParams.get('q') ?? '';
  const uuid = bitbucketUuid(account);
  if (path === '/user') {
    const { login: nickname, name: display_name } = account;
    const links = { avatar: { href: `https://avatars.example/${nickname}` } };
    return {
      status: 200,
      body: { type: 'user', uuid, account_id: `557058:${account.id}`, nickname, display_name, links },
    };
  }
  if (path === '/user/emails') {
    const emails = [{ email: `${account.login}@old.example.test`, is_primary: false, is_confirmed: true }];
    if (account.email) emails.push({ email: account.email, is_primary: true, is_confirmed: true });
    return list(url, emails);
  }
  if (path === '/user/permissions/workspaces') {
    const workspace = (slug: string) => ({ permission: 'member', workspace: { type: 'workspace', slug, name: slug } });
    return list(url, account.organizations.map(workspace));
  }
  const repositories = /^\/repositories(?:\/([^/]+))?$/.exec(path);
  if (repositories) {
    if (url.searchParams.get('role') !== 'member') return { status: 400, body: { type: 'error' } };
    const workspace = repositories[1] && decodeURIComponent(repositories[1]);
    const sort = url.searchParams.get('sort');
    const found = account.repositories
      .filter((repo) => !workspace || repo.fullName.startsWith(`${workspace}/`))
      .filter(byName(q))
      .filter((repo) => !q.includes('has_issues=true') || tracks(account, repo))
      .sort((a, b) => (sort === 'updated_on' ? 1 : -1) * a.pushedAt.localeCompare(b.pushedAt));
    return list(url, found.map(repository(account)));
  }
  const pulls = /^\/pullrequests\/([^/]+)$/.exec(path);
  if (pulls) {
    const mine = decodeURIComponent(pulls[1] ?? '') === uuid && url.searchParams.get('state') === 'OPEN';
    const pull = (item: HostItem) => ({
      type: 'pullrequest',
      id: item.number,
      title: item.title,
      state: 'OPEN',
      destination: { branch: { name: 'main' }, repository: { type: 'repository', full_name: item.repo } },
    });
    return list(url, mine ? account.pulls.map(pull) : []);
  }
  const [, name = '', resource] = /^\/repositories\/([^/]+\/[^/]+)\/(refs\/branches|issues)$/.exec(path) ?? [];
  const repo = account.repositories.find((known) => known.fullName === decodeURIComponent(name));
  if (!repo || (resource === 'issues' && !tracks(account, repo))) return undefined;
  if (resource === 'issues') {
    const assigned = filtered(q, 'assignee.uuid') === uuid && /state="open"/.test(q);
    const issues = account.issues.filter((issue) => assigned && issue.repo === repo.fullName);
    return list(
      url,
      issues.map(({ number, title }) => ({ type: 'issue', id: number, title, state: 'open' })),
    );
  }
  const branches = repo.branches
    .filter((branch) => branch.name.toLowerCase().includes((filtered(q, 'name') ?? '').toLowerCase()))
    .map(({ name: branch, sha: hash, date }) => ({
      type: 'branch',
      name: branch,
      target: { type: 'commit', hash, date },
    }));
  return list(url, branches);
}
