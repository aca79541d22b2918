import { expect, it } from 'vitest';
import { gitHostOfFile } from '../support/git-host.ts';
import { browseRoutes, connect, hostAccount } from './git-browse-world.ts';
import { describeApi } from './harness.ts';

const host = await gitHostOfFile();

const REPOS = '/api/v1/git/repositories/search';
const ROUTES = browseRoutes('github');

describeApi(
  'browsing a Git provider that cannot answer, and bad input',
  (api) => {
    it('is a 403 {detail} without a token, and never reads another user’s provider', async () => {
      const [owner, stranger] = await api().users(2);
      host.accounts.set('ghp-owner-token', hostAccount('owner', 1));
      await connect(api(), owner, { github: { token: 'ghp-owner-token' } });
      const before = host.requests.length;
      for (const route of ROUTES) {
        const answer = await api().call(route, { as: stranger });
        expect(answer.status, route).toBe(403);
        expect(answer.body, route).toEqual({ detail: expect.stringMatching(/No (github token|Git provider)/) });
      }
      // A GitLab token of the owner's does not make the stranger's GitHub calls theirs, nor the owner's GitLab.
      const gitlab = await api().call(`${REPOS}?provider=gitlab`, { as: owner });
      expect(gitlab.status).toBe(403);
      expect(host.requests.length).toBe(before);
      // The stranger's own token reads the stranger's account, not the owner's.
      host.accounts.set('ghp-stranger-token', hostAccount('stranger', 2));
      await connect(api(), stranger, { github: { token: 'ghp-stranger-token' } });
      const own = await api().call(`${REPOS}?provider=github`, { as: stranger });
      expect(own.body.items.map((repo: { full_name: string }) => repo.full_name)).not.toContain('owner/alpha');
      expect(own.body.items[0].full_name).toBe('stranger/alpha');
    });

    it('is a 403 saying the provider refused the token, which it never answers nor logs', async () => {
      const user = await api().user();
      await connect(api(), user, {
        github: { token: 'ghp-revoked-secret' },
        gitlab: { token: 'glpat-revoked-secret' },
      });
      for (const route of [...ROUTES, `${REPOS}?provider=gitlab`]) {
        const answer = await api().call(route, { as: user });
        expect(answer.status, route).toBe(403);
        expect(answer.body, route).toEqual({
          detail: expect.stringMatching(/Git(Hub|Lab) refused the stored token \(401\)/),
        });
      }
      expect(host.requests.at(-1)?.credential).toBe('glpat-revoked-secret');
      // git-info keeps answering what the app knows.
      const info = await api().call('/api/v1/users/git-info', { as: user });
      expect(info.body).toMatchObject({ provider: 'github', login: null, id: null, token_set: true });
      expect(api().logs.join('\n')).not.toMatch(/revoked-secret/);
    });

    it('is a 429 with the provider’s Retry-After when it rate-limits, a 502 naming it when it is down', async () => {
      const user = await api().user();
      host.accounts.set('ghp-limited', hostAccount('limited', 3));
      host.accounts.set('glpat-limited', hostAccount('limited-gl', 4));
      await connect(api(), user, { github: { token: 'ghp-limited' }, gitlab: { token: 'glpat-limited' } });
      host.mode = 'rate-limited';
      const github = await api().call(`${REPOS}?provider=github`, { as: user });
      expect(github.status).toBe(429);
      expect(github.body).toEqual({ detail: expect.stringMatching(/GitHub rate-limits/) });
      expect(Number(github.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(Number(github.headers.get('retry-after'))).toBeLessThanOrEqual(31);
      const gitlab = await api().call(`${REPOS}?provider=gitlab`, { as: user });
      expect(gitlab.status).toBe(429);
      expect(gitlab.headers.get('retry-after')).toBe('17');

      host.mode = 'down';
      for (const route of [...ROUTES, `${REPOS}?provider=gitlab`]) {
        const answer = await api().call(route, { as: user });
        expect(answer.status, route).toBe(502);
        expect(answer.body, route).toEqual({ detail: expect.stringMatching(/^Git(Hub|Lab) failed \(503\)/) });
      }
      const info = await api().call('/api/v1/users/git-info', { as: user });
      expect(info.status).toBe(200);
      expect(info.body).toMatchObject({ provider: 'github', login: null });
    });

    it('is a 400 for a token host at an internal address, and for a provider it cannot browse', async () => {
      const user = await api().user();
      await connect(api(), user, {
        github: { token: 'ghp-inside', host: 'http://127.0.0.1:9' },
        gitlab: { token: 'glpat-inside', host: 'localhost' },
        forgejo: { token: 'forgejo-token' },
      });
      const before = host.requests.length;
      for (const provider of ['github', 'gitlab']) {
        const answer = await api().call(`${REPOS}?provider=${provider}`, { as: user });
        expect(answer.status, provider).toBe(400);
        expect(answer.body.detail, provider).toMatch(/resolves to an internal address \((127\.0\.0\.1|::1)\)/);
      }
      expect(host.requests.length).toBe(before);
      const forgejo = await api().call(`${REPOS}?provider=forgejo`, { as: user });
      expect(forgejo.status).toBe(400);
      expect(forgejo.body).toEqual({ detail: expect.stringMatching(/forgejo is not supported yet/) });
      await connect(api(), user, { github: { token: 'ghp-inside', host: 'not a host' } });
      const junk = await api().call(`${REPOS}?provider=github`, { as: user });
      expect(junk.status).toBe(400);
      expect(junk.body.detail).toMatch(/not a host/);
    });

    it('is a 422 at the right loc for bad query parameters', async () => {
      const user = await api().user();
      const cases: [string, (string | number)[]][] = [
        [REPOS, ['query', 'provider']],
        [`${REPOS}?provider=svn`, ['query', 'provider']],
        [`${REPOS}?provider=github&limit=0`, ['query', 'limit']],
        [`${REPOS}?provider=github&limit=101`, ['query', 'limit']],
        [`${REPOS}?provider=github&page_id=abc`, ['query', 'page_id']],
        [`${REPOS}?provider=github&sort_order=size-asc`, ['query', 'sort_order']],
        ['/api/v1/git/branches/search?provider=github&query=', ['query', 'repository']],
        ['/api/v1/git/branches/search?provider=github&repository=no-slash&query=', ['query', 'repository']],
        ['/api/v1/git/branches/search?provider=github&repository=a/b', ['query', 'query']],
        ['/api/v1/git/installations/search?provider=github&page_id=0', ['query', 'page_id']],
        ['/api/v1/git/suggested-tasks/search?limit=x', ['query', 'limit']],
        ['/api/v1/git/suggested-tasks/search?page_id=x', ['query', 'page_id']],
      ];
      for (const [route, loc] of cases) {
        const answer = await api().call(route, { as: user });
        expect(answer.status, route).toBe(422);
        expect(answer.body.detail[0].loc, route).toEqual(loc);
      }
    });

    it('requires a credential', async () => {
      for (const route of ROUTES) expect((await api().call(route)).status, route).toBe(401);
    });
  },
  { config: { git_github_url: host.url, git_gitlab_url: host.url } },
);
