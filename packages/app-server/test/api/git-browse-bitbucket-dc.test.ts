import { expect, it } from 'vitest';
import { gitHostOfFile } from '../support/git-host.ts';
import { browseRoutes, connect, hostAccount } from './git-browse-world.ts';
import { describeApi } from './harness.ts';

const host = await gitHostOfFile();

const REPOS = '/api/v1/git/repositories/search?provider=bitbucket_data_center';
const BRANCHES = '/api/v1/git/branches/search?provider=bitbucket_data_center';
const ROUTES = browseRoutes('bitbucket_data_center');
const names = (answer: { body: { items: { full_name?: string; name?: string }[] } }) =>
  answer.body.items.map((item) => item.full_name ?? item.name);

describeApi(
  'browsing the caller’s Bitbucket Data Center (REST API 1.0, at the token’s host)',
  (api) => {
    /** A user connected to the Data Center at the stand-in (the token's host) with `token`. */
    const connected = async (who: string, token = `bbdc-${who}-${host.accounts.size}`) => {
      const user = await api().user();
      host.accounts.set(token, hostAccount(who, 4000 + host.accounts.size * 10));
      await connect(api(), user, { bitbucket_data_center: { token, host: host.url } });
      return { user, token };
    };
    const asked = () => host.requests.at(-1);

    it('lists repositories as PROJECT/repo, page by page (start/limit), by name and by project', async () => {
      const { user, token } = await connected('alice');
      const first = await api().call(`${REPOS}&limit=2`, { as: user });
      expect(first.status, first.text).toBe(200);
      expect(first.body).toEqual({
        items: [
          {
            id: expect.any(String),
            full_name: 'alice/alpha',
            git_provider: 'bitbucket_data_center',
            is_public: true,
            stargazers_count: null,
            link_header: null,
            pushed_at: null,
            owner_type: 'user',
            main_branch: null,
          },
          expect.objectContaining({ full_name: 'alice/beta', is_public: false }),
        ],
        next_page_id: '2',
      });
      const second = await api().call(`${REPOS}&limit=2&page_id=2`, { as: user });
      expect(second.body).toEqual({
        items: [expect.objectContaining({ full_name: 'acme/alice-tools', owner_type: 'organization' })],
        next_page_id: null,
      });
      expect(asked()).toEqual({
        path: '/rest/api/1.0/repos?permission=REPO_READ&start=2&limit=2',
        credential: token,
      });
      expect(names(await api().call(`${REPOS}&query=BET`, { as: user }))).toEqual(['alice/beta']);
      expect(names(await api().call(`${REPOS}&installation_id=acme&query=tools`, { as: user }))).toEqual([
        'acme/alice-tools',
      ]);
      expect(asked()?.path).toMatch(/^\/rest\/api\/1\.0\/projects\/acme\/repos\?start=0&limit=100$/);
      expect(`${first.text}${second.text}${api().logs.join('\n')}`).not.toContain(token);
    });

    it('lists branches by filter text; projects, pull requests, organizations and the account', async () => {
      const { user, token } = await connected('carol', 'carol:http-token-secret');
      const branches = await api().call(`${BRANCHES}&repository=carol/alpha&query=feature&limit=1`, { as: user });
      expect(branches.body).toEqual({
        items: [
          { name: 'feature/login', commit_sha: expect.stringMatching(/^a+1$/), protected: false, last_push_date: null },
        ],
        next_page_id: '2',
      });
      expect(asked()).toEqual({
        path: '/rest/api/1.0/projects/carol/repos/alpha/branches?filterText=feature&start=0&limit=1',
        credential: token,
      });
      const unknown = await api().call(`${BRANCHES}&repository=carol/nothing&query=`, { as: user });
      expect(unknown.status).toBe(404);
      const projects = await api().call('/api/v1/git/installations/search?provider=bitbucket_data_center', {
        as: user,
      });
      expect(projects.body).toEqual({ items: ['acme', 'acme-labs'], next_page_id: null });
      const tasks = await api().call('/api/v1/git/suggested-tasks/search', { as: user });
      expect(tasks.body).toEqual({
        items: [
          {
            git_provider: 'bitbucket_data_center',
            task_type: 'OPEN_PR',
            repo: 'carol/alpha',
            issue_number: 5,
            title: "carol's open PR",
          },
        ],
        next_page_id: null,
      });
      const orgs = await api().call('/api/v1/users/git-organizations', { as: user });
      expect(orgs.body).toEqual({ provider: 'bitbucket_data_center', organizations: ['acme', 'acme-labs'] });
      const info = await api().call('/api/v1/users/git-info', { as: user });
      expect(info.body).toEqual({
        id: expect.any(String),
        login: 'carol',
        avatar_url: null,
        company: null,
        name: 'carol Example',
        email: 'carol@example.test',
        provider: 'bitbucket_data_center',
        host: host.url,
        token_set: true,
      });
      const answered = [branches, projects, tasks, orgs, info].map((answer) => answer.text).join('\n');
      expect(`${answered}${api().logs.join('\n')}`).not.toMatch(/http-token-secret/);
    });

    it('reads only the caller’s own token; maps refusal 403, rate limit 429, down 502', async () => {
      await connected('owner');
      const stranger = await api().user();
      const before = host.requests.length;
      for (const route of ROUTES) {
        const answer = await api().call(route, { as: stranger });
        expect(answer.status, route).toBe(403);
      }
      expect(host.requests.length).toBe(before);
      const revoked = `bbdc-revoked-secret-${host.accounts.size}`;
      await connect(api(), stranger, { bitbucket_data_center: { token: revoked, host: host.url } });
      for (const route of ROUTES) {
        const answer = await api().call(route, { as: stranger });
        expect(answer.status, route).toBe(403);
        expect(answer.body, route).toEqual({
          detail: 'Bitbucket Data Center refused the stored token (401): store a valid one',
        });
      }
      host.accounts.set(revoked, hostAccount('stranger', 4999));
      expect(names(await api().call(REPOS, { as: stranger }))).toContain('stranger/alpha');
      host.mode = 'rate-limited';
      const limited = await api().call(REPOS, { as: stranger });
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toBe('17');
      host.mode = 'down';
      const down = await api().call(REPOS, { as: stranger });
      expect(down.status).toBe(502);
      expect(down.body).toEqual({ detail: 'Bitbucket Data Center failed (503)' });
      expect(api().logs.join('\n')).not.toMatch(/revoked-secret/);
    });
  },
  { config: { git_allow_private_hosts: true } },
);
