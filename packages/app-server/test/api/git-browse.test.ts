import { AppServerClient, BosunApiError } from '@bosun/client';
import { expect, it } from 'vitest';
import { gitHostOfFile } from '../support/git-host.ts';
import { connect, hostAccount } from './git-browse-world.ts';
import { describeApi } from './harness.ts';

const host = await gitHostOfFile();

const REPOS = '/api/v1/git/repositories/search';
const BRANCHES = '/api/v1/git/branches/search';

describeApi(
  'browsing the caller’s Git provider (git/*/search, users/git-organizations)',
  (api) => {
    /** A user connected to GitHub and GitLab at the stand-in host (with its accounts `who` there). */
    const connected = async (who: string) => {
      const user = await api().user();
      const id = host.accounts.size * 100 + 1000;
      host.accounts.set(`ghp-${who}-${id}`, hostAccount(who, id));
      host.accounts.set(`glpat-${who}-${id}`, hostAccount(`${who}-gl`, id + 50));
      await connect(api(), user, { github: { token: `ghp-${who}-${id}` }, gitlab: { token: `glpat-${who}-${id}` } });
      return { user, github: `ghp-${who}-${id}`, gitlab: `glpat-${who}-${id}` };
    };

    it('lists the caller’s GitHub repositories page by page, with their token, mapped to Repository', async () => {
      const { user, github } = await connected('alice');
      const first = await api().call(`${REPOS}?provider=github&limit=2`, { as: user });
      expect(first.status, first.text).toBe(200);
      expect(first.body.items).toEqual([
        {
          id: expect.any(String),
          full_name: 'alice/alpha',
          git_provider: 'github',
          is_public: expect.any(Boolean),
          stargazers_count: expect.any(Number),
          link_header: null,
          pushed_at: expect.stringMatching(/^2026-02/),
          owner_type: 'user',
          main_branch: 'main',
        },
        expect.objectContaining({ full_name: 'alice/beta' }),
      ]);
      expect(first.body.next_page_id).toBe('2');
      const second = await api().call(`${REPOS}?provider=github&limit=2&page_id=2`, { as: user });
      expect(second.body).toEqual({
        items: [expect.objectContaining({ full_name: 'acme/alice-tools', owner_type: 'organization' })],
        next_page_id: null,
      });
      const asked = host.requests.filter(({ path }) => path.startsWith('/api/v3/user/repos'));
      expect(asked.at(-1)).toEqual({ path: expect.stringContaining('page=2'), credential: github });
      expect(`${first.text}${second.text}${api().logs.join('\n')}`).not.toContain(github);
    });

    it('searches repositories by name, by installation and with a sort order', async () => {
      const { user } = await connected('bob');
      const found = await api().call(`${REPOS}?provider=github&query=beta&sort_order=stars-asc`, { as: user });
      expect(found.body).toEqual({ items: [expect.objectContaining({ full_name: 'bob/beta' })], next_page_id: null });
      expect(host.requests.at(-1)?.path).toMatch(/^\/api\/v3\/search\/repositories\?q=beta&sort=stars&order=asc/);
      const installed = await api().call(`${REPOS}?provider=github&installation_id=77`, { as: user });
      expect(installed.body.items.map((repo: { full_name: string }) => repo.full_name)).toEqual(['acme/bob-tools']);
      const gitlab = await api().call(`${REPOS}?provider=gitlab&query=ALPHA`, { as: user });
      expect(gitlab.body).toEqual({
        items: [expect.objectContaining({ full_name: 'bob-gl/alpha', git_provider: 'gitlab', main_branch: 'main' })],
        next_page_id: null,
      });
      expect(host.requests.at(-1)?.path).toMatch(/^\/api\/v4\/projects\?membership=true&search=ALPHA/);
      const group = await api().call(`${REPOS}?provider=gitlab&installation_id=77&limit=1`, { as: user });
      expect(group.body.items.map((repo: { full_name: string }) => repo.full_name)).toEqual(['acme/bob-gl-tools']);
    });

    it('refuses an empty installation id (422) without asking the provider', async () => {
      const { user } = await connected('erin');
      const asked = host.requests.length;
      const empty = await api().call(`${REPOS}?provider=github&installation_id=`, { as: user });
      expect(empty.status).toBe(422);
      expect(empty.body.detail[0].loc).toEqual(['query', 'installation_id']);
      expect(host.requests.length).toBe(asked);
    });

    it('lists the branches whose names hold the query, on GitHub and GitLab, page by page', async () => {
      const { user } = await connected('carol');
      const github = await api().call(`${BRANCHES}?provider=github&repository=carol/alpha&query=feature`, {
        as: user,
      });
      // GitHub's GraphQL refs: alphabetical, with the commit's date.
      expect(github.body).toEqual({
        items: [
          {
            name: 'feature/login',
            commit_sha: expect.stringMatching(/^a+1$/),
            protected: false,
            last_push_date: '2026-01-01T00:00:00Z',
          },
          expect.objectContaining({ name: 'feature/logout' }),
        ],
        next_page_id: null,
      });
      const all = await api().call(`${BRANCHES}?provider=github&repository=carol/alpha&query=&limit=3`, { as: user });
      expect(all.body.items.map((b: { name: string }) => b.name)).toEqual([
        'feature/login',
        'feature/logout',
        'fix/typo',
      ]);
      expect(all.body.next_page_id).toEqual(expect.any(String));
      const rest = await api().call(
        `${BRANCHES}?provider=github&repository=carol/alpha&query=&limit=3&page_id=${encodeURIComponent(all.body.next_page_id)}`,
        { as: user },
      );
      expect(rest.body).toEqual({
        items: [expect.objectContaining({ name: 'main', protected: true })],
        next_page_id: null,
      });
      const gitlab = await api().call(`${BRANCHES}?provider=gitlab&repository=acme/carol-gl-tools&query=fix`, {
        as: user,
      });
      expect(gitlab.body).toEqual({
        items: [
          { name: 'fix/typo', commit_sha: expect.any(String), protected: false, last_push_date: expect.any(String) },
        ],
        next_page_id: null,
      });
      expect(host.requests.at(-1)?.path).toContain('/api/v4/projects/acme%2Fcarol-gl-tools/repository/branches');
      const unknown = await api().call(`${BRANCHES}?provider=github&repository=carol/nothing&query=`, { as: user });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ detail: expect.stringMatching(/GitHub/) });
    });

    it('lists installations, suggested tasks of every connected provider, organizations and the account', async () => {
      const { user } = await connected('dave');
      const installations = await api().call('/api/v1/git/installations/search?provider=github&limit=1', { as: user });
      expect(installations.body).toEqual({ items: ['77'], next_page_id: '2' });
      const tasks = await api().call('/api/v1/git/suggested-tasks/search', { as: user });
      expect(tasks.body).toEqual({
        items: [
          {
            git_provider: 'github',
            task_type: 'OPEN_PR',
            repo: 'dave/alpha',
            issue_number: 5,
            title: "dave's open PR",
          },
          {
            git_provider: 'github',
            task_type: 'OPEN_ISSUE',
            repo: 'acme/dave-tools',
            issue_number: 9,
            title: expect.any(String),
          },
          {
            git_provider: 'gitlab',
            task_type: 'OPEN_PR',
            repo: 'dave-gl/alpha',
            issue_number: 5,
            title: expect.any(String),
          },
          {
            git_provider: 'gitlab',
            task_type: 'OPEN_ISSUE',
            repo: 'acme/dave-gl-tools',
            issue_number: 9,
            title: expect.any(String),
          },
        ],
        next_page_id: null,
      });
      const paged = await api().call('/api/v1/git/suggested-tasks/search?limit=3&page_id=3', { as: user });
      expect(paged.body).toEqual({
        items: [expect.objectContaining({ git_provider: 'gitlab', issue_number: 9 })],
        next_page_id: null,
      });
      const orgs = await api().call('/api/v1/users/git-organizations', { as: user });
      expect(orgs.body).toEqual({ provider: 'github', organizations: ['acme', 'acme-labs'] });
      const info = await api().call('/api/v1/users/git-info', { as: user });
      expect(info.body).toEqual({
        id: expect.any(String),
        login: 'dave',
        avatar_url: 'https://avatars.example/dave',
        company: 'Acme',
        name: 'dave Example',
        email: 'dave@example.test',
        provider: 'github',
        host: null,
        token_set: true,
      });
    });

    it('is what the typed client calls', async () => {
      const { user } = await connected('erin');
      const client = new AppServerClient({ baseUrl: api().url, apiKey: user.key });
      const repos = await client.get('/api/v1/git/repositories/search', {
        query: { provider: 'gitlab', query: 'beta', sort_order: 'stars-desc' },
      });
      expect(repos.items.map((repo) => repo.full_name)).toEqual(['erin-gl/beta']);
      const branches = await client.get('/api/v1/git/branches/search', {
        query: { provider: 'github', repository: 'erin/beta', query: 'fix' },
      });
      expect(branches.items.map((branch) => branch.name)).toEqual(['fix/typo']);
      expect(await client.get('/api/v1/git/installations/search', { query: { provider: 'gitlab' } })).toEqual({
        items: ['77', '78'],
        next_page_id: null,
      });
      expect((await client.get('/api/v1/git/suggested-tasks/search', { query: { limit: 1 } })).next_page_id).toBe('1');
      expect(await client.get('/api/v1/users/git-organizations')).toEqual({
        provider: 'github',
        organizations: ['acme', 'acme-labs'],
      });
      const stranger = new AppServerClient({ baseUrl: api().url, apiKey: (await api().user()).key });
      const refused = await stranger.get('/api/v1/users/git-organizations').catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(BosunApiError);
      expect((refused as BosunApiError).status).toBe(403);
    });
  },
  { config: { git_github_url: host.url, git_gitlab_url: host.url } },
);
