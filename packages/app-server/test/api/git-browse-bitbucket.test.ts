import { expect, it } from 'vitest';
import { bitbucketUuid } from '../support/git-host-bitbucket.ts';
import { gitHostOfFile } from '../support/git-host.ts';
import { browseRoutes, connect, hostAccount } from './git-browse-world.ts';
import { describeApi } from './harness.ts';

const host = await gitHostOfFile();

const REPOS = '/api/v1/git/repositories/search?provider=bitbucket';
const BRANCHES = '/api/v1/git/branches/search?provider=bitbucket';
const ROUTES = browseRoutes('bitbucket');
/** The stand-in's Bitbucket requests, by path, with the credential each carried. */
const asked = (prefix: string) => host.requests.filter(({ path }) => path.startsWith(`/2.0${prefix}`));

describeApi(
  'browsing the caller’s Bitbucket Cloud workspaces (REST API 2.0)',
  (api) => {
    /** A user connected to Bitbucket only, with `token` (an access token, or `username:app_password`). */
    const connected = async (who: string, token = `bb-${who}-${host.accounts.size}`) => {
      const user = await api().user();
      const account = hostAccount(who, 2000 + host.accounts.size * 10);
      host.accounts.set(token, account);
      await connect(api(), user, { bitbucket: { token } });
      return { user, token, account };
    };

    it('lists the caller’s repositories page by page (the body’s `next`), with their token, mapped', async () => {
      const { user, token } = await connected('alice');
      const first = await api().call(`${REPOS}&limit=2`, { as: user });
      expect(first.status, first.text).toBe(200);
      expect(first.body).toEqual({
        items: [
          {
            id: expect.stringMatching(/^\{repo-\d+\}$/),
            full_name: 'acme/alice-tools',
            git_provider: 'bitbucket',
            is_public: expect.any(Boolean),
            stargazers_count: null,
            link_header: null,
            pushed_at: expect.stringMatching(/^2026-02/),
            owner_type: 'organization',
            main_branch: 'main',
          },
          expect.objectContaining({ full_name: 'alice/beta', owner_type: 'user' }),
        ],
        next_page_id: '2',
      });
      const second = await api().call(`${REPOS}&limit=2&page_id=2`, { as: user });
      expect(second.body).toEqual({
        items: [expect.objectContaining({ full_name: 'alice/alpha' })],
        next_page_id: null,
      });
      expect(asked('/repositories').at(-1)).toEqual({
        path: '/2.0/repositories?role=member&sort=-updated_on&page=2&pagelen=2',
        credential: token,
      });
      expect(`${first.text}${second.text}${api().logs.join('\n')}`).not.toContain(token);
    });

    it('searches by name (a quoted filter), by workspace, and sorts by last update', async () => {
      const { user } = await connected('bob');
      const found = await api().call(`${REPOS}&query=${encodeURIComponent('BE"TA')}`, { as: user });
      expect(found.body).toEqual({ items: [], next_page_id: null });
      expect(new URL(`http://x${asked('/repositories').at(-1)?.path}`).searchParams.get('q')).toBe('name~"BE\\"TA"');
      const beta = await api().call(`${REPOS}&query=BETA&sort_order=stars-desc`, { as: user });
      expect(beta.body.items.map((repo: { full_name: string }) => repo.full_name)).toEqual(['bob/beta']);
      const oldest = await api().call(`${REPOS}&sort_order=updated-asc`, { as: user });
      expect(oldest.body.items.map((repo: { full_name: string }) => repo.full_name)).toEqual([
        'bob/alpha',
        'bob/beta',
        'acme/bob-tools',
      ]);
      const workspace = await api().call(`${REPOS}&installation_id=acme`, { as: user });
      expect(workspace.body.items.map((repo: { full_name: string }) => repo.full_name)).toEqual(['acme/bob-tools']);
      expect(asked('/repositories').at(-1)?.path).toMatch(/^\/2\.0\/repositories\/acme\?role=member&/);
    });

    it('lists the branches whose names hold the query, page by page; an unknown repository is a 404', async () => {
      const { user } = await connected('carol');
      const feature = await api().call(`${BRANCHES}&repository=carol/alpha&query=feature`, { as: user });
      expect(feature.body).toEqual({
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
      expect(asked('/repositories/carol/alpha/refs/branches').at(-1)?.path).toContain('q=name%7E%22feature%22');
      const all = await api().call(`${BRANCHES}&repository=carol/alpha&query=&limit=3`, { as: user });
      expect(all.body.items.map((b: { name: string }) => b.name)).toEqual(['main', 'feature/login', 'feature/logout']);
      expect(all.body.next_page_id).toBe('2');
      const last = await api().call(`${BRANCHES}&repository=carol/alpha&query=&limit=3&page_id=2`, { as: user });
      expect(last.body).toEqual({ items: [expect.objectContaining({ name: 'fix/typo' })], next_page_id: null });
      const unknown = await api().call(`${BRANCHES}&repository=carol/nothing&query=`, { as: user });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ detail: 'Not found at Bitbucket' });
    });

    it('lists workspaces, suggested tasks, organizations and the account (app password sent as Basic)', async () => {
      const { user, token, account } = await connected('dave', `dave:app-password-secret-${host.accounts.size}`);
      const workspaces = await api().call('/api/v1/git/installations/search?provider=bitbucket&limit=1', { as: user });
      expect(workspaces.body).toEqual({ items: ['acme'], next_page_id: '2' });
      expect(asked('/user/permissions/workspaces').at(-1)?.credential).toBe(token);
      const tasks = await api().call('/api/v1/git/suggested-tasks/search', { as: user });
      expect(tasks.body).toEqual({
        items: [
          {
            git_provider: 'bitbucket',
            task_type: 'OPEN_PR',
            repo: 'dave/alpha',
            issue_number: 5,
            title: "dave's open PR",
          },
          {
            git_provider: 'bitbucket',
            task_type: 'OPEN_ISSUE',
            repo: 'acme/dave-tools',
            issue_number: 9,
            title: 'Issue assigned to dave',
          },
        ],
        next_page_id: null,
      });
      // Only the repositories with an issue tracker are asked for issues (the others would be a 404).
      const perRepository = asked('/repositories/').filter(({ credential }) => credential === token);
      expect(perRepository.map(({ path }) => path.split('?')[0])).toEqual(['/2.0/repositories/acme/dave-tools/issues']);
      expect(asked('/pullrequests/').at(-1)?.path).toContain(encodeURIComponent(bitbucketUuid(account)));
      const orgs = await api().call('/api/v1/users/git-organizations', { as: user });
      expect(orgs.body).toEqual({ provider: 'bitbucket', organizations: ['acme', 'acme-labs'] });
      const info = await api().call('/api/v1/users/git-info', { as: user });
      expect(info.body).toEqual({
        id: bitbucketUuid(account),
        login: 'dave',
        avatar_url: 'https://avatars.example/dave',
        company: null,
        name: 'dave Example',
        email: 'dave@example.test',
        provider: 'bitbucket',
        host: null,
        token_set: true,
      });
      const answered = [workspaces, tasks, orgs, info].map((answer) => answer.text).join('\n');
      expect(`${answered}${api().logs.join('\n')}`).not.toMatch(/app-password-secret/);
    });

    it('reads only the caller’s own token: a stranger gets a 403, and their own account with theirs', async () => {
      const { user: owner } = await connected('owner');
      const stranger = await api().user();
      const before = host.requests.length;
      for (const route of ROUTES) {
        const answer = await api().call(route, { as: stranger });
        expect(answer.status, route).toBe(403);
        expect(answer.body, route).toEqual({ detail: expect.stringMatching(/No (bitbucket token|Git provider)/) });
      }
      expect((await api().call(`${REPOS}`.replace('bitbucket', 'github'), { as: owner })).status).toBe(403);
      expect(host.requests.length).toBe(before);
      await connect(api(), stranger, { bitbucket: { token: 'bb-stranger-own' } });
      host.accounts.set('bb-stranger-own', hostAccount('stranger', 2999));
      const own = await api().call(REPOS, { as: stranger });
      expect(own.body.items.map((repo: { full_name: string }) => repo.full_name).sort()).toEqual([
        'acme/stranger-tools',
        'stranger/alpha',
        'stranger/beta',
      ]);
      expect(host.requests.at(-1)?.credential).toBe('bb-stranger-own');
    });

    it('maps Bitbucket’s refusals: a refused token 403, rate limit 429, down 502', async () => {
      const user = await api().user();
      await connect(api(), user, { bitbucket: { token: 'bb-revoked-secret' } });
      for (const route of ROUTES) {
        const answer = await api().call(route, { as: user });
        expect(answer.status, route).toBe(403);
        expect(answer.body, route).toEqual({ detail: 'Bitbucket refused the stored token (401): store a valid one' });
      }
      const info = await api().call('/api/v1/users/git-info', { as: user });
      expect(info.body).toMatchObject({ provider: 'bitbucket', login: null, id: null, token_set: true });
      expect(api().logs.join('\n')).not.toMatch(/revoked-secret/);

      host.mode = 'rate-limited';
      const limited = await api().call(REPOS, { as: user });
      expect(limited.status).toBe(429);
      expect(limited.body).toEqual({ detail: expect.stringMatching(/^Bitbucket rate-limits/) });
      expect(limited.headers.get('retry-after')).toBe('60');
      host.mode = 'down';
      for (const route of ROUTES) {
        const answer = await api().call(route, { as: user });
        expect(answer.status, route).toBe(502);
        expect(answer.body, route).toEqual({ detail: 'Bitbucket failed (503)' });
      }
    });

    it('is a 400 for a Bitbucket Cloud token stored with another host, and a Data Center without or inside', async () => {
      const user = await api().user();
      await connect(api(), user, {
        bitbucket: { token: 'bb-inside', host: 'bitbucket.corp.example' },
        bitbucket_data_center: { token: 'bbdc-token' },
      });
      const before = host.requests.length;
      const selfHosted = await api().call(REPOS, { as: user });
      expect(selfHosted.status).toBe(400);
      expect(selfHosted.body).toEqual({
        detail: 'bitbucket.corp.example is not Bitbucket Cloud: store its token as bitbucket_data_center',
      });
      const dataCenter = `${REPOS}_data_center`;
      const noHost = await api().call(dataCenter, { as: user });
      expect(noHost.status).toBe(400);
      expect(noHost.body).toEqual({
        detail: expect.stringMatching(/^Store the Bitbucket Data Center token with its host/),
      });
      // A Data Center host is the user's: at an internal address it is not asked (no git_allow_private_hosts).
      await connect(api(), user, { bitbucket_data_center: { token: 'bbdc-token', host: host.url } });
      const inside = await api().call(dataCenter, { as: user });
      expect(inside.status).toBe(400);
      expect(inside.body.detail).toMatch(/^Bitbucket Data Center: .* resolves to an internal address \(127\.0\.0\.1\)/);
      expect(host.requests.length).toBe(before);
      // The configured Bitbucket's own host, stored with the token, is the configured Bitbucket.
      host.accounts.set('bb-same-host', hostAccount('same', 3100));
      await connect(api(), user, { bitbucket: { token: 'bb-same-host', host: host.url } });
      expect((await api().call(REPOS, { as: user })).body.items).toHaveLength(3);
    });
  },
  { config: { git_bitbucket_url: host.url } },
);
