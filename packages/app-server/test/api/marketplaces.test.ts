import { AppServerClient } from '@bosun/client';
import { beforeAll, expect, it } from 'vitest';
import { TestRepository } from '../../../sources/test/git/support.ts';
import { gitUrlsOf } from '../../src/git/provider-urls.ts';
import { appServerConfig } from '../../src/index.ts';
import { marketplacesOf } from '../../src/marketplaces/index.ts';
import { gitRemotes } from '../support/git-remotes.ts';
import { type TestUser, describeApi } from './harness.ts';
import { MARKET, acmeWithRoles, post } from './marketplace-org.ts';

let marketSha = '';
let moving: TestRepository;

const { options, server: gitServer } = gitRemotes(
  'bosun-marketplaces-',
  async (dir) => {
    const market = await TestRepository.create(dir, 'acme/market');
    marketSha = await market.commit(MARKET);
    moving = await TestRepository.create(dir, 'acme/moving');
    await moving.commit(MARKET);
    const nested = await TestRepository.create(dir, 'acme/nested');
    await nested.commit(Object.fromEntries(Object.entries(MARKET).map(([path, text]) => [`sub/dir/${path}`, text])));
    const empty = await TestRepository.create(dir, 'acme/empty');
    await empty.commit({ 'README.md': '# nothing here\n' });
  },
  { config: { git_allow_private_hosts: true, instance_marketplaces: ['github:acme/market#company##'] } },
);

describeApi(
  'marketplaces: registration, composition, preview',
  (api) => {
    let owner: TestUser;
    let admin: TestUser;
    let member: TestUser;
    let orgId: string;
    beforeAll(async () => {
      ({ owner, admin, member, orgId } = await acmeWithRoles(api()));
    });

    const list = async (user: TestUser) =>
      (await api().call(`/api/v1/marketplaces?org_id=${orgId}`, { as: user })).body;

    it('registers personal entries (name derived, auto_load off) and refuses credentials and bad paths', async () => {
      const created = await post(api(), member, '/api/v1/marketplaces', { source: 'github:acme/2-tools.git' });
      expect(created.status, created.text).toBe(201);
      expect(created.body).toMatchObject({ name: 'tools', scope: 'personal', auto_load: false, writable: true });
      expect(created.body.registered_by).toBe(member.id);

      const credentials = await post(api(), member, '/api/v1/marketplaces', {
        source: 'https://user:hunter2@example.com/acme/tools.git',
      });
      expect(credentials.status).toBe(422);
      expect(credentials.body.detail[0].loc).toEqual(['body', 'source']);
      expect(credentials.text).not.toContain('hunter2');
      for (const repo_path of ['../up', '/abs', 'https://x/y']) {
        const bad = await post(api(), member, '/api/v1/marketplaces', { source: 'github:acme/x', repo_path });
        expect(bad.status, repo_path).toBe(422);
        expect(bad.body.detail[0].loc).toEqual(['body', 'repo_path']);
      }
      const again = await post(api(), member, '/api/v1/marketplaces', { source: 'github:acme/tools' });
      expect(again.status).toBe(409);
    });

    it('lets only owners and admins write the organization’s, with a version (stale: 409)', async () => {
      const before = await list(member);
      expect(before.org_version).toBe('0');
      const body = { source: 'github:acme/market', name: 'shared', scope: 'organization', org_id: orgId };
      const refused = await post(api(), member, '/api/v1/marketplaces', { ...body, expected_version: '0' });
      expect(refused.status).toBe(403);
      const stranger = await api().user();
      expect((await post(api(), stranger, '/api/v1/marketplaces', { ...body, expected_version: '0' })).status).toBe(
        404,
      );
      expect((await post(api(), admin, '/api/v1/marketplaces', body)).status).toBe(422);

      const created = await post(api(), admin, '/api/v1/marketplaces', { ...body, expected_version: '0' });
      expect(created.status, created.text).toBe(201);
      const stale = await post(api(), owner, '/api/v1/marketplaces', { ...body, name: 'other', expected_version: '0' });
      expect(stale.status).toBe(409);
      expect(stale.body.detail).toMatch(/changed since the version you read/);

      const patched = await api().call(`/api/v1/marketplaces/organization/shared?org_id=${orgId}`, {
        method: 'PATCH',
        as: owner,
        body: { auto_load: true, expected_version: '1' },
      });
      expect(patched.status, patched.text).toBe(200);
      expect(patched.body.auto_load).toBe(true);
      const memberPatch = await api().call(`/api/v1/marketplaces/organization/shared?org_id=${orgId}`, {
        method: 'PATCH',
        as: member,
        body: { auto_load: false, expected_version: '2' },
      });
      expect(memberPatch.status).toBe(403);
      expect((await list(member)).items.find((m: { name: string }) => m.name === 'shared')).toMatchObject({
        scope: 'organization',
        auto_load: true,
        writable: false,
      });
      expect((await list(admin)).org_version).toBe('2');
    });

    it('composes instance < organization < personal; a personal name taken above is a 409; instance is read-only', async () => {
      const collide = await post(api(), member, '/api/v1/marketplaces', { source: 'github:acme/x', name: 'shared' });
      expect(collide.status).toBe(409);
      expect(collide.body.detail).toMatch(/organization Acme has a marketplace named shared/);
      const instance = await post(api(), member, '/api/v1/marketplaces', { source: 'github:acme/x', name: 'company' });
      expect(instance.status).toBe(409);

      // An organization may override an instance entry (to turn Auto-Load off, say): the hidden one says so.
      const override = await post(api(), owner, '/api/v1/marketplaces', {
        source: 'github:acme/market',
        name: 'company',
        scope: 'organization',
        org_id: orgId,
        expected_version: '2',
      });
      expect(override.status, override.text).toBe(201);
      const { items } = await list(member);
      expect(items.map((m: { name: string; scope: string }) => `${m.scope}:${m.name}`)).toEqual([
        'instance:company',
        'organization:shared',
        'organization:company',
        'personal:tools',
      ]);
      expect(items[0]).toMatchObject({ auto_load: true, writable: false, overridden_by: 'organization' });
      expect(items[2]).toMatchObject({ auto_load: false, overridden_by: null });

      for (const method of ['PATCH', 'DELETE']) {
        const write = await api().call('/api/v1/marketplaces/instance/company', {
          method,
          as: owner,
          ...(method === 'PATCH' ? { body: { auto_load: false } } : {}),
        });
        expect(write.status).toBe(403);
      }
      const removed = await api().call(`/api/v1/marketplaces/organization/company?org_id=${orgId}&expected_version=3`, {
        method: 'DELETE',
        as: admin,
      });
      expect(removed.status).toBe(204);
      expect((await api().call('/api/v1/marketplaces/personal/tools', { method: 'DELETE', as: owner })).status).toBe(
        404,
      );
    });

    it('previews a marketplace at its ref: plugins, skills, commands, hooks; registers nothing', async () => {
      const preview = await post(api(), member, '/api/v1/skills/marketplace-skills', { source: 'github:acme/market' });
      expect(preview.status, preview.text).toBe(200);
      expect(preview.body.resolved_ref).toBe(marketSha);
      expect(preview.body.marketplace).toMatchObject({ name: 'acme-tools', problems: [] });
      expect(preview.body.marketplace.entries[0]).toMatchObject({
        name: 'formatter',
        problems: [],
        contents: { plugin: 'formatter', skills: ['formatter:tidy'], commands: ['/formatter:format'] },
      });
      expect(preview.body.marketplace.entries[0].contents.hooks).toHaveLength(1);
      const nested = await post(api(), member, '/api/v1/skills/marketplace-skills', {
        source: 'github:acme/nested',
        repo_path: 'sub/dir',
      });
      expect(nested.status, nested.text).toBe(200);
      expect((await list(member)).items.some((m: { source: string }) => m.source === 'github:acme/nested')).toBe(false);
    });

    it('says what is wrong with a preview: unknown ref, missing path, no manifest, a host not configured', async () => {
      const cases: [object, number, RegExp][] = [
        [{ source: 'github:acme/market', ref: 'no-such-branch' }, 422, /no branch or tag 'no-such-branch'/],
        [{ source: 'github:acme/market', repo_path: 'not/there' }, 422, /Repository path not found/],
        [{ source: 'github:acme/empty' }, 404, /No marketplace in github:acme\/empty/],
        [{ source: 'github:acme/missing' }, 422, /cannot fetch github:acme\/missing/],
        [{ source: 'http://169.254.169.254/latest/meta-data.git' }, 422, /not a configured Git provider/],
        [{ source: 'file:///etc/passwd' }, 422, /file:\/\/ sources are refused: .*serve the repository over HTTP\(S\)/],
      ];
      for (const [body, status, detail] of cases) {
        const answer = await post(api(), member, '/api/v1/skills/marketplace-skills', body);
        expect(answer.status, answer.text).toBe(status);
        expect(JSON.stringify(answer.body.detail)).toMatch(detail);
      }
    });

    it('tables what the marketplaces bring, with the skills turned off and the marketplaces that cannot be read', async () => {
      const disable = { disabled_skills: ['formatter:tidy'] };
      expect((await post(api(), member, '/api/v1/settings', disable)).status).toBe(200);
      const table = await api().call(`/api/v1/skills-and-plugins?org_id=${orgId}`, { as: member });
      expect(table.status, table.text).toBe(200);
      expect(table.body.disabled_skills).toEqual(['formatter:tidy']);
      const rows = table.body.rows.map((row: { kind: string; scope: string; marketplace: string; name: string }) =>
        [row.kind, row.scope, row.marketplace, row.name].join(' '),
      );
      expect(rows).toEqual([
        'plugin instance company formatter',
        'plugin organization shared formatter',
        'marketplace personal tools tools',
      ]);
      expect(table.body.rows[1]).toMatchObject({
        auto_load: true,
        resolved_ref: marketSha,
        skills: ['formatter:tidy'],
        disabled_skills: ['formatter:tidy'],
        commands: ['/formatter:format'],
        mcp_servers: [],
        problems: [],
      });
      expect(table.body.rows[1].hooks).toHaveLength(1);
      expect(table.body.rows[2].problems[0].message).toMatch(/cannot fetch the marketplace github:acme\/2-tools/);
    });

    it('reviews updates: the table shows what a moved branch changes; Auto-Load keeps the approved commit', async () => {
      const user = await api().user();
      const marketplaces = marketplacesOf(
        api().repositories,
        appServerConfig(options.config),
        gitUrlsOf(options.config),
      );
      // Each database's run starts from the marketplace as it was first committed.
      const polish = 'plugins/formatter/skills/polish/SKILL.md';
      const before = await moving.commit({ ...MARKET, [polish]: null, 'NOTE.md': `${user.id}\n` });
      const created = await post(api(), user, '/api/v1/marketplaces', {
        source: 'github:acme/moving',
        auto_load: true,
        updates: 'review',
      });
      expect(created.status, created.text).toBe(201);
      expect(created.body).toMatchObject({ name: 'moving', updates: 'review', approved_ref: before });
      const after = await moving.commit({
        [polish]: '---\nname: polish\ndescription: Polishes.\n---\nPolish.\n',
        'plugins/formatter/hooks/hooks.json': JSON.stringify({
          hooks: { PreToolUse: [{ matcher: 'terminal', hooks: [{ type: 'command', command: 'echo changed' }] }] },
        }),
      });
      const autoLoaded = async () => (await marketplaces.autoLoad(user.id, null)).registrations;
      expect(await autoLoaded()).toContainEqual(expect.objectContaining({ name: 'moving', ref: before }));

      const table = (await api().call('/api/v1/skills-and-plugins', { as: user })).body;
      const row = table.rows.find((r: { marketplace: string }) => r.marketplace === 'moving');
      expect(row).toMatchObject({ resolved_ref: before, pending_ref: after, skills: ['formatter:tidy'] });
      expect(row.changes).toEqual({
        status: 'changed',
        skills: { added: ['polish'], removed: [] },
        commands: { added: [], removed: [] },
        hooks: { added: ['PreToolUse [terminal]: echo changed'], removed: ['PreToolUse [terminal]: true'] },
        mcp_servers: { added: [], removed: [] },
      });

      const follow = await api().call('/api/v1/marketplaces/personal/moving/approve', {
        method: 'POST',
        as: user,
        body: { approved_ref: after },
      });
      expect(follow.status, follow.text).toBe(200);
      expect(await autoLoaded()).toContainEqual(expect.objectContaining({ name: 'moving', ref: after }));
      const approved = (await api().call('/api/v1/skills-and-plugins', { as: user })).body.rows;
      expect(approved.find((r: { marketplace: string }) => r.marketplace === 'moving')).toMatchObject({
        resolved_ref: after,
        pending_ref: null,
        changes: null,
        skills: ['formatter:polish', 'formatter:tidy'],
      });
      // Following the branch again: Auto-Load takes what it names, and approving is a conflict.
      const followed = await api().call('/api/v1/marketplaces/personal/moving', {
        method: 'PATCH',
        as: user,
        body: { updates: 'follow' },
      });
      expect(followed.body).toMatchObject({ updates: 'follow', approved_ref: null });
      const refused = await api().call('/api/v1/marketplaces/personal/moving/approve', {
        method: 'POST',
        as: user,
        body: { approved_ref: before },
      });
      expect(refused.status).toBe(409);
    });

    it('checks a source on a host of its own when it is registered (not at every start), naming what to change', async () => {
      const user = await api().user();
      const register = (body: object) => post(api(), user, '/api/v1/marketplaces', body);
      const url = gitServer().url;
      const ok = await register({ source: `${url}/acme/market.git`, name: 'own', updates: 'review' });
      expect(ok.status, ok.text).toBe(201);
      expect(ok.body.approved_ref).toBe(marketSha);
      const cases: [object, string, RegExp][] = [
        [
          { source: 'http://127.0.0.1:9/acme/market.git' },
          'source',
          /^127\.0\.0\.1:9 is not a configured Git provider .*: set git_gitlab_url .*--git-gitlab-url.* to its base URL$/,
        ],
        [{ source: `${url}/acme/nothing.git` }, 'source', /^cannot reach http:\/\/.*\/acme\/nothing\.git: /],
        [{ source: `${url}/acme/market.git`, ref: 'no-such-branch' }, 'ref', /no branch or tag 'no-such-branch'/],
        [
          { source: 'ssh://git@127.0.0.1/acme/market.git' },
          'source',
          /not ssh: URLs: register its http\(s\):\/\/ URL$/,
        ],
      ];
      for (const [body, field, msg] of cases) {
        const refused = await register({ ...body, name: 'refused' });
        expect(refused.status, refused.text).toBe(422);
        expect(refused.body.detail).toEqual([
          { loc: ['body', field], msg: expect.stringMatching(msg), type: 'value_error' },
        ]);
      }
      // The settings' list is checked the same way.
      const listed = await api().call('/api/v1/settings', {
        method: 'POST',
        as: user,
        body: { registered_marketplaces: [{ source: `${url}/acme/nothing.git`, name: 'x' }] },
      });
      expect(listed.status, listed.text).toBe(422);
      expect(
        (await api().call('/api/v1/marketplaces', { as: user })).body.items.map((m: { name: string }) => m.name),
      ).toEqual(['company', 'own']);
    });

    it('is driven by the typed client: register, list, change, preview, delete', async () => {
      const user = await api().user();
      const client = new AppServerClient({ baseUrl: api().url, apiKey: user.key });
      const mine = { params: { scope: 'personal', name: 'mine' } } as const;
      await client.post('/api/v1/marketplaces', { body: { source: 'github:acme/market', name: 'mine' } });
      await client.patch('/api/v1/marketplaces/{scope}/{name}', { ...mine, body: { auto_load: true } });
      const { items } = await client.get('/api/v1/marketplaces');
      expect(items.map((m) => [m.name, m.auto_load])).toEqual([
        ['company', true],
        ['mine', true],
      ]);
      const preview = client.post('/api/v1/skills/marketplace-skills', { body: { source: 'github:acme/market' } });
      expect(await preview).toMatchObject({ resolved_ref: marketSha });
      const table = await client.get('/api/v1/skills-and-plugins');
      expect(table.rows.map((row) => row.marketplace)).toEqual(['company', 'mine']);
      await client.delete('/api/v1/marketplaces/{scope}/{name}', mine);
      expect((await client.get('/api/v1/marketplaces')).items.map((m) => m.name)).toEqual(['company']);
    });
  },
  options,
);
