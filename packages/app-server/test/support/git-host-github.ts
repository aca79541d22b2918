import { type HostAccount, type HostAnswer, type HostItem, type HostRepository, paged } from './git-host.ts';

/** GitHub's JSON for a repository (the fields the app reads, and a few more as GitHub sends them). */
const repository = (repo: HostRepository) => ({
  id: repo.id,
  node_id: `R_${repo.id}`,
  name: repo.fullName.split('/')[1],
  full_name: repo.fullName,
  private: repo.private,
  owner: { login: repo.fullName.split('/')[0], type: repo.ownerIsOrganization ? 'Organization' : 'User' },
  stargazers_count: repo.stars,
  forks_count: 0,
  pushed_at: repo.pushedAt,
  default_branch: repo.defaultBranch,
});

const issue = (item: HostItem, pull: boolean) => ({
  number: item.number,
  title: item.title,
  state: 'open',
  repository_url: `https://api.github.com/repos/${item.repo}`,
  ...(pull ? { pull_request: { url: `https://api.github.com/repos/${item.repo}/pulls/${item.number}` } } : {}),
});

const list = (url: URL, items: unknown[]): HostAnswer => {
  const page = paged(url, items);
  return { status: 200, body: page.items, headers: page.headers };
};

/** The answer of GitHub's REST API v3 to `GET <path>` by the holder of `account`; undefined: a 404. */
export function gitHubAnswer(account: HostAccount, path: string, url: URL): HostAnswer | undefined {
  const q = url.searchParams.get('q') ?? '';
  if (path === '/user') {
    const { id, login, name, email, company } = account;
    return { status: 200, body: { id, login, avatar_url: `https://avatars.example/${login}`, name, email, company } };
  }
  if (path === '/user/repos') return list(url, account.repositories.map(repository));
  if (path === '/search/repositories') {
    const words = q.toLowerCase();
    const found = account.repositories.filter((repo) => repo.fullName.toLowerCase().includes(words));
    const page = paged(url, found.map(repository));
    return {
      status: 200,
      body: { total_count: found.length, incomplete_results: false, items: page.items },
      headers: page.headers,
    };
  }
  if (path === '/search/issues') {
    const pulls = q.includes('is:pr') && q.includes('author:@me');
    const items = pulls ? account.pulls : q.includes('assignee:@me') ? account.issues : [];
    return {
      status: 200,
      body: { total_count: items.length, incomplete_results: false, items: items.map((item) => issue(item, pulls)) },
    };
  }
  if (path === '/user/installations') {
    const page = paged(
      url,
      account.installations.map((id) => ({ id, app_id: 1, target_type: 'Organization' })),
    );
    return {
      status: 200,
      body: { total_count: account.installations.length, installations: page.items },
      headers: page.headers,
    };
  }
  const installed = /^\/user\/installations\/(\d+)\/repositories$/.exec(path);
  if (installed) {
    const repos = account.repositories.filter((repo) => repo.installation === Number(installed[1]));
    const page = paged(url, repos.map(repository));
    return { status: 200, body: { total_count: repos.length, repositories: page.items }, headers: page.headers };
  }
  if (path === '/user/orgs')
    return list(
      url,
      account.organizations.map((login) => ({ login, id: login.length })),
    );
  const branches = /^\/repos\/([^/]+\/[^/]+)\/branches$/.exec(path);
  const repo = account.repositories.find((known) => known.fullName === decodeURIComponent(branches?.[1] ?? ''));
  if (repo) {
    const shown = repo.branches.map(({ name, sha, protected: guarded }) => ({
      name,
      commit: { sha, url: '' },
      protected: guarded,
    }));
    return list(url, shown);
  }
  return undefined;
}
