import { expect, it } from 'vitest';
import { type GitHubPull, graphQlFaults } from '../support/git-host-github-graphql.ts';
import { gitHostOfFile } from '../support/git-host.ts';
import { connect, hostAccount } from './git-browse-world.ts';
import { describeApi } from './harness.ts';

const host = await gitHostOfFile();

const BRANCHES = '/api/v1/git/branches/search';
const TASKS = '/api/v1/git/suggested-tasks/search';
const NAMES = ['release/1', 'feature/a', 'main', 'feature/b', 'docs', 'feature/c', 'FEATURE/d', 'fix/feature-e'];

/** The GraphQL requests the stand-in got since `from`: each body's operation and variables. */
const graphQlSince = (from: number) =>
  host.requests
    .slice(from)
    .filter(({ path }) => path === '/api/graphql')
    .map(({ body }) => JSON.parse(body ?? '{}') as { query: string; variables: Record<string, unknown> });

describeApi(
  'GitHub through its GraphQL API: branch search, pull-request tasks, its errors',
  (api) => {
    /** A user connected to GitHub (and GitLab) at the stand-in, whose account `change` adjusts. */
    const connected = async (who: string, change: (account: ReturnType<typeof hostAccount>) => void = () => {}) => {
      const user = await api().user();
      const account = hostAccount(who, 7000 + host.accounts.size * 10);
      change(account);
      host.accounts.set(`ghp-${who}`, account);
      host.accounts.set(`glpat-${who}`, hostAccount(`${who}-gl`, 9000 + host.accounts.size * 10));
      await connect(api(), user, { github: { token: `ghp-${who}` }, gitlab: { token: `glpat-${who}` } });
      return user;
    };
    const manyBranches = (account: ReturnType<typeof hostAccount>) => {
      const [alpha] = account.repositories;
      if (alpha)
        alpha.branches = NAMES.map((name, at) => ({
          name,
          sha: `${at}`.padStart(40, 'c'),
          protected: false,
          date: `2026-03-0${at + 1}T00:00:00Z`,
        }));
    };

    it('answers full pages of matching branches, in order, the next one by the GraphQL cursor', async () => {
      const user = await connected('gina', manyBranches);
      const from = host.requests.length;
      const names: string[][] = [];
      let pageId: string | null = null;
      do {
        const after: string = pageId === null ? '' : `&page_id=${encodeURIComponent(pageId)}`;
        const page = await api().call(
          `${BRANCHES}?provider=github&repository=gina/alpha&query=feature&limit=2${after}`,
          { as: user },
        );
        expect(page.status, page.text).toBe(200);
        names.push(page.body.items.map((branch: { name: string }) => branch.name));
        pageId = page.body.next_page_id;
      } while (pageId !== null && names.length < 10);
      // Every page is full but the last: the REST filter kept what each page of every branch held.
      expect(names).toEqual([['FEATURE/d', 'feature/a'], ['feature/b', 'feature/c'], ['fix/feature-e']]);
      const asked = graphQlSince(from);
      expect(asked.map(({ variables }) => variables)).toEqual([
        { owner: 'gina', name: 'alpha', query: 'feature', first: 2, after: null },
        { owner: 'gina', name: 'alpha', query: 'feature', first: 2, after: expect.any(String) },
        { owner: 'gina', name: 'alpha', query: 'feature', first: 2, after: expect.any(String) },
      ]);
      expect(asked[0]?.query).toMatch(/^query BranchSearch\(/);
      expect(host.requests.slice(from).every(({ credential }) => credential === 'ghp-gina')).toBe(true);
    });

    it('is a 422 for a page_id GitHub did not hand out (or not a page number elsewhere), a 404 for no repository', async () => {
      const user = await connected('hugo');
      const forged = await api().call(
        `${BRANCHES}?provider=github&repository=hugo/alpha&query=&page_id=bm90LWEtY3Vyc29y`,
        { as: user },
      );
      expect(forged.status).toBe(422);
      expect(forged.body.detail[0]).toMatchObject({ loc: ['query', 'page_id'] });
      const gitlab = await api().call(`${BRANCHES}?provider=gitlab&repository=acme/hugo-gl-tools&query=&page_id=abc`, {
        as: user,
      });
      expect(gitlab.status).toBe(422);
      expect(gitlab.body.detail[0]).toMatchObject({ loc: ['query', 'page_id'] });
      const bad = await api().call(`${BRANCHES}?provider=github&repository=hugo/alpha&query=&page_id=a%20b`, {
        as: user,
      });
      expect(bad.status).toBe(422);
      for (const repository of ['hugo/nothing', 'hugo/alpha/deeper']) {
        const unknown = await api().call(`${BRANCHES}?provider=github&repository=${repository}&query=`, { as: user });
        expect(unknown.status, repository).toBe(404);
        expect(unknown.body).toEqual({ detail: 'Not found at GitHub' });
      }
    });

    it('makes each open pull request the task that holds first: conflicts, failing checks, unresolved comments', async () => {
      const pulls: GitHubPull[] = [
        {
          repo: 'iris/alpha',
          number: 1,
          title: 'conflicting and failing',
          mergeable: 'CONFLICTING',
          checks: 'FAILURE',
        },
        { repo: 'iris/alpha', number: 2, title: 'failing, commented', checks: 'FAILURE', threads: [false] },
        { repo: 'iris/beta', number: 3, title: 'errored checks', checks: 'ERROR' },
        { repo: 'iris/beta', number: 4, title: 'one thread open', checks: 'SUCCESS', threads: [true, false] },
        { repo: 'iris/beta', number: 5, title: 'all resolved, pending', checks: 'PENDING', threads: [true] },
        { repo: 'iris/beta', number: 6, title: 'mergeability unknown', mergeable: 'UNKNOWN' },
        { repo: 'iris/old', number: 7, title: 'archived', mergeable: 'CONFLICTING', archived: true },
      ];
      const user = await connected('iris', (account) => {
        account.pulls = pulls;
      });
      const from = host.requests.length;
      const tasks = await api().call(TASKS, { as: user });
      expect(tasks.status, tasks.text).toBe(200);
      const github = tasks.body.items.filter((task: { git_provider: string }) => task.git_provider === 'github');
      expect(
        github.map((task: { issue_number: number; task_type: string }) => [task.issue_number, task.task_type]),
      ).toEqual([
        [1, 'MERGE_CONFLICTS'],
        [2, 'FAILING_CHECKS'],
        [3, 'FAILING_CHECKS'],
        [4, 'UNRESOLVED_COMMENTS'],
        [5, 'OPEN_PR'],
        [6, 'OPEN_PR'],
        [9, 'OPEN_ISSUE'],
      ]);
      expect(github[0]).toEqual({
        git_provider: 'github',
        task_type: 'MERGE_CONFLICTS',
        repo: 'iris/alpha',
        issue_number: 1,
        title: 'conflicting and failing',
      });
      // GitLab keeps its own tasks beside.
      expect(tasks.body.items.filter((task: { git_provider: string }) => task.git_provider === 'gitlab')).toHaveLength(
        2,
      );
      expect(graphQlSince(from).map(({ query }) => /^query (\w+)/.exec(query)?.[1])).toEqual(['SuggestedPullRequests']);
    });

    it('turns GraphQL’s errors into the REST paths’: rate limits 429 with Retry-After, refusals 403, others 502', async () => {
      const user = await connected('jack');
      const branches = `${BRANCHES}?provider=github&repository=jack/alpha&query=`;
      host.mode = 'rate-limited';
      const primary = await api().call(branches, { as: user });
      expect(primary.status).toBe(429);
      expect(primary.body).toEqual({ detail: expect.stringMatching(/^GitHub rate-limits/) });
      expect(Number(primary.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(Number(primary.headers.get('retry-after'))).toBeLessThanOrEqual(31);
      host.mode = 'ok';
      const cases: [object, number, RegExp, string | null][] = [
        [
          {
            status: 403,
            body: { message: 'You have exceeded a secondary rate limit.' },
            headers: { 'retry-after': '9' },
          },
          429,
          /^GitHub rate-limits/,
          '9',
        ],
        [
          {
            status: 200,
            body: { data: null, errors: [{ type: 'FORBIDDEN', message: 'Resource not accessible by integration' }] },
          },
          403,
          /^GitHub refused the stored token/,
          null,
        ],
        [
          { status: 200, body: { data: null, errors: [{ type: 'NOT_FOUND', message: 'Could not resolve' }] } },
          404,
          /^Not found at GitHub$/,
          null,
        ],
        [
          {
            status: 200,
            body: { data: null, errors: [{ type: 'EXCESSIVE_PAGINATION', message: 'Requesting 101 records' }] },
          },
          502,
          /^GitHub refused the app's GraphQL query \(EXCESSIVE_PAGINATION\)/,
          null,
        ],
        [{ status: 200, body: { data: null } }, 502, /^GitHub answered a GraphQL query without data/, null],
        [{ status: 502, body: { message: 'Server Error' } }, 502, /^GitHub failed \(502\)/, null],
      ];
      for (const [fault, status, detail, retryAfter] of cases) {
        graphQlFaults.set('jack', fault as never);
        const answer = await api().call(branches, { as: user });
        expect(answer.status, JSON.stringify(fault)).toBe(status);
        expect(answer.body).toEqual({ detail: expect.stringMatching(detail) });
        expect(answer.headers.get('retry-after')).toBe(retryAfter);
      }
      // Suggested tasks with GitHub alone: its GraphQL error is the route's; beside GitLab, GitHub is left out.
      graphQlFaults.set('jack', {
        status: 200,
        body: { errors: [{ type: 'RATE_LIMITED', message: 'API rate limit exceeded' }] },
        headers: { 'x-ratelimit-remaining': '0', 'retry-after': '5' },
      });
      const tasks = await api().call(TASKS, { as: user });
      expect(tasks.status).toBe(200);
      expect(tasks.body.items.every((task: { git_provider: string }) => task.git_provider === 'gitlab')).toBe(true);
      expect(api().logs.join('\n')).toMatch(/Suggested tasks of github left out: GitHub rate-limits/);
      const alone = await api().user();
      await connect(api(), alone, { github: { token: 'ghp-jack' } });
      const limited = await api().call(TASKS, { as: alone });
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toBe('5');
      graphQlFaults.delete('jack');
      expect(api().logs.join('\n')).not.toContain('ghp-jack');
    });
  },
  { config: { git_github_url: host.url, git_gitlab_url: host.url } },
);

it('the GraphQL stand-in refuses what GitHub refuses', async () => {
  host.accounts.set('ghp-standin', hostAccount('standin', 8800));
  const ask = async (query: string, variables: object) => {
    const answer = await fetch(`${host.url}/api/graphql`, {
      method: 'POST',
      headers: { authorization: 'Bearer ghp-standin', 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables }),
    });
    return { status: answer.status, body: (await answer.json()) as { errors?: { type: string }[]; data?: unknown } };
  };
  const search =
    'query BranchSearch($owner: String!, $name: String!, $first: Int!, $after: String) { repository(owner: $owner, name: $name) { refs(refPrefix: "refs/heads/", first: $first, after: $after) { nodes { name } } } }';
  const fine = { owner: 'standin', name: 'alpha', first: 2, after: null };
  expect((await ask(search, fine)).body.errors).toBeUndefined();
  const refused: [string, object, string][] = [
    [search, { ...fine, first: 101 }, 'EXCESSIVE_PAGINATION'],
    [search, { ...fine, after: 'bm9wZQ==' }, 'INVALID_CURSOR_ARGUMENTS'],
    [search, { ...fine, first: '2' }, 'INVALID_VARIABLE'],
    [search, { ...fine, owner: undefined }, 'INVALID_VARIABLE'],
    [search, { ...fine, name: 'nothing' }, 'NOT_FOUND'],
    [search.replace(', $after: String', ''), fine, 'UNDECLARED_VARIABLE'],
    [
      search.replace(', $first: Int!', '').replace('first: $first, ', ''),
      { ...fine, first: undefined },
      'MISSING_PAGINATION_BOUNDARIES',
    ],
    [search.replace('first: $first, ', 'first: 2, '), fine, 'UNUSED_VARIABLE'],
  ];
  for (const [query, variables, type] of refused) {
    const answer = await ask(query, variables);
    expect(answer.status, type).toBe(200);
    expect(answer.body.errors?.[0]?.type, type).toBe(type);
  }
});
