import { beforeAll, expect, it } from 'vitest';
import { TestRepository } from '../../../sources/test/git/support.ts';
import { MarketplaceNameTakenError } from '../../src/data/errors.ts';
import { gitUrlsOf } from '../../src/git/provider-urls.ts';
import { appServerConfig } from '../../src/index.ts';
import { PersonalMarketplaces, marketplacesOf } from '../../src/marketplaces/index.ts';
import { gitRemotes } from '../support/git-remotes.ts';
import { type TestUser, describeApi } from './harness.ts';
import { acmeWithRoles, post } from './marketplace-org.ts';

const INSTANCE = ['github:acme/market#company##'];
let reviewed: TestRepository;

const { options, server: gitServer } = gitRemotes(
  'bosun-settings-marketplaces-',
  async (dir) => {
    reviewed = await TestRepository.create(dir, 'acme/reviewed');
    await reviewed.commit({
      '.plugin/marketplace.json': JSON.stringify({ name: 'reviewed', plugins: [] }),
    });
    // A source on a host of its own (a URL) is fetched when it is registered.
    const skills = await TestRepository.create(dir, 'acme/skills');
    await skills.commit({ 'm/.plugin/marketplace.json': JSON.stringify({ name: 'skills', plugins: [] }) });
    await skills.tag('v2');
  },
  { config: { instance_marketplaces: INSTANCE, git_allow_private_hosts: true } },
);

/** The personal marketplaces through OpenHands' settings: `registered_marketplaces` read and replaced whole. */
describeApi(
  'settings: registered_marketplaces',
  (api) => {
    let admin: TestUser;
    let member: TestUser;
    let orgId: string;
    beforeAll(async () => {
      ({ admin, member, orgId } = await acmeWithRoles(api()));
      const shared = await post(api(), admin, '/api/v1/marketplaces', {
        source: 'github:acme/shared',
        scope: 'organization',
        org_id: orgId,
        expected_version: '0',
      });
      expect(shared.status, shared.text).toBe(201);
    });

    const settingsOf = async (user: TestUser, orgHeader = true) => {
      const headers: Record<string, string> = orgHeader ? { 'x-org-id': orgId } : {};
      const answer = await api().call('/api/v1/settings', { as: user, headers });
      expect(answer.status, answer.text).toBe(200);
      return answer.body;
    };
    const names = (items: { name: string }[]) => items.map((item) => item.name);
    const save = (user: TestUser, body: object) => post(api(), user, '/api/v1/settings', body);
    const personalNames = async (user: TestUser) =>
      names((await settingsOf(user, user === member)).registered_marketplaces);

    it('shows the personal list apart from the inherited ones (instance, organization: read-only)', async () => {
      const own = await post(api(), member, '/api/v1/marketplaces', { source: 'github:acme/mine' });
      expect(own.status, own.text).toBe(201);
      const settings = await settingsOf(member);
      expect(names(settings.registered_marketplaces)).toEqual(['mine']);
      expect(settings.registered_marketplaces[0]).toMatchObject({ scope: 'personal', writable: true });
      expect(names(settings.inherited_marketplaces)).toEqual(['company', 'shared']);
      expect(settings.inherited_marketplaces[0]).toMatchObject({ scope: 'instance', writable: false });
      expect(settings.inherited_marketplaces[1]).toMatchObject({ scope: 'organization', writable: false });
      expect(names((await settingsOf(member, false)).inherited_marketplaces)).toEqual(['company']);
    });

    it('replaces the whole personal list: scope personal, auto_load false unless sent', async () => {
      const user = await api().user();
      expect((await save(user, { registered_marketplaces: [{ source: 'github:acme/old' }] })).status).toBe(200);
      const saved = await save(user, {
        language: 'fr',
        registered_marketplaces: [
          { source: 'github:acme/tools', scope: 'organization', writable: false },
          { source: `${gitServer().url}/acme/skills.git`, name: 'skills', ref: 'v2', repo_path: 'm', auto_load: true },
        ],
      });
      expect(saved.status, saved.text).toBe(200);
      const settings = (await api().call('/api/v1/settings', { as: user })).body;
      expect(settings.language).toBe('fr');
      expect(settings.registered_marketplaces).toMatchObject([
        { name: 'tools', source: 'github:acme/tools', scope: 'personal', auto_load: false, ref: null },
        { name: 'skills', scope: 'personal', auto_load: true, ref: 'v2', repo_path: 'm' },
      ]);

      // A GET's body posted back unchanged keeps the list; an entry changed in place keeps its registration.
      const registeredAt = settings.registered_marketplaces[0].registered_at;
      const back = await save(user, { ...withoutWriteOnly(settings), language: 'de' });
      expect(back.status, back.text).toBe(200);
      const tools = { source: 'github:acme/tools', auto_load: true };
      expect((await save(user, { registered_marketplaces: [tools] })).status).toBe(200);
      const after = (await api().call('/api/v1/settings', { as: user })).body.registered_marketplaces;
      expect(after).toMatchObject([{ name: 'tools', auto_load: true, registered_at: registeredAt }]);

      expect((await save(user, { language: 'en' })).status).toBe(200);
      expect(await personalNames(user)).toEqual(['tools']);
      expect((await save(user, { registered_marketplaces: [] })).status).toBe(200);
      expect(await personalNames(user)).toEqual([]);
    });

    it('refuses a name given twice or taken by an inherited marketplace (409), changing nothing', async () => {
      const user = await api().user();
      await save(user, { registered_marketplaces: [{ source: 'github:acme/kept' }] });
      const cases = [
        [
          { source: 'github:acme/a', name: 'twin' },
          { source: 'github:acme/b', name: 'twin' },
        ],
        [{ source: 'github:acme/new' }, { source: 'github:other/company' }],
      ];
      for (const list of cases) {
        const refused = await save(user, { language: 'it', registered_marketplaces: list });
        expect(refused.status, refused.text).toBe(409);
        expect(typeof refused.body.detail).toBe('string');
      }
      const settings = await settingsOf(user, false);
      expect(names(settings.registered_marketplaces)).toEqual(['kept']);
      expect(settings.language).not.toBe('it');

      // The organization's names are taken for its members.
      const collides = await save(member, { registered_marketplaces: [{ source: 'github:x/y', name: 'shared' }] });
      expect(collides.status).toBe(409);
      expect(collides.body.detail).toMatch(/organization Acme has a marketplace named shared/);
      expect(await personalNames(member)).toEqual(['mine']);
    });

    it('validates each entry as the marketplaces API does (422 at its loc), changing nothing', async () => {
      const user = await api().user();
      await save(user, { registered_marketplaces: [{ source: 'github:acme/kept' }] });
      const at = (index: number, field: string) => ['body', 'registered_marketplaces', index, field];
      const cases: [object, (string | number)[]][] = [
        [{ source: 'https://user:hunter2@example.com/acme/tools.git' }, at(1, 'source')],
        [{ source: 'github:acme/x', repo_path: '../up' }, at(1, 'repo_path')],
        [{ source: 'github:acme/x', repo_path: '/abs' }, at(1, 'repo_path')],
        [{ source: 'github:acme/x', name: '1bad' }, at(1, 'name')],
        [{ source: 'not a repository' }, at(1, 'source')],
        [{ source: 'https://example.com/acme/x.git', updates: 'review' }, at(1, 'source')],
        [{ source: 'github:acme/x', unknown: true }, ['body', 'registered_marketplaces', 1, 'unknown']],
      ];
      for (const [entry, loc] of cases) {
        const refused = await save(user, { registered_marketplaces: [{ source: 'github:acme/fine' }, entry] });
        expect(refused.status, `${JSON.stringify(entry)} ${refused.text}`).toBe(422);
        expect(refused.body.detail.map((d: { loc: unknown }) => d.loc)).toContainEqual(loc);
        expect(refused.text).not.toContain('hunter2');
      }
      const credential = await save(user, {
        agent_settings_diff: { search: { api_key: 'sk-leak' } },
        registered_marketplaces: [],
      });
      expect(credential.status).toBe(422);
      expect(await personalNames(user)).toEqual(['kept']);
    });

    it('never touches another user’s list', async () => {
      const [alice, bob] = await api().users(2);
      await save(alice, { registered_marketplaces: [{ source: 'github:acme/alice' }] });
      await save(bob, { registered_marketplaces: [{ source: 'github:acme/bob' }] });
      expect((await save(bob, { registered_marketplaces: [] })).status).toBe(200);
      expect(await personalNames(alice)).toEqual(['alice']);
      expect(await personalNames(bob)).toEqual([]);
      // The same name in two users' lists is no collision.
      expect((await save(bob, { registered_marketplaces: [{ source: 'github:acme/alice' }] })).status).toBe(200);
      expect(await personalNames(alice)).toEqual(['alice']);
    });

    it('changes the list in one transaction: a write that fails midway leaves it as it was', async () => {
      const user = await api().user();
      const { repositories } = api();
      const config = appServerConfig({ instance_marketplaces: INSTANCE });
      const { registry } = marketplacesOf(repositories, config, gitUrlsOf(config));
      const personal = new PersonalMarketplaces(registry, repositories.marketplaces);
      const list = [{ source: 'github:acme/one' }, { source: 'github:acme/two', auto_load: true }];
      await repositories.settings.update(user.id, {}, await personal.replacement(user.id, list));
      const before = (await personal.view({ userId: user.id, orgId: null })).registered;

      // Removed, changed, then two new entries of one name: the second insert fails after the other writes.
      const entry = {
        source: 'github:acme/dup',
        ref: null,
        repo_path: null,
        auto_load: false,
        updates: 'follow' as const,
      };
      const added = [1, 2].map(() => ({ ...entry, name: 'dup', approved_ref: null, registeredBy: user.id }));
      const plan = {
        removed: ['one'],
        changed: [['two', { auto_load: false }]] as [string, { auto_load: boolean }][],
        added,
      };
      await expect(repositories.marketplaces.replacePersonal(user.id, plan)).rejects.toThrow(MarketplaceNameTakenError);
      const after = (await personal.view({ userId: user.id, orgId: null })).registered;
      const shape = ({ name, source, auto_load }: { name: string; source: string; auto_load: boolean }) => ({
        name,
        source,
        auto_load,
      });
      expect(after.map(shape)).toEqual(before.map(shape));
      expect(after.map(shape)).toEqual([
        { name: 'one', source: 'github:acme/one', auto_load: false },
        { name: 'two', source: 'github:acme/two', auto_load: true },
      ]);
    });

    it('writes the list and the other settings in one transaction: the settings failing after the list keeps neither', async () => {
      const user = await api().user();
      const { repositories } = api();
      const config = appServerConfig({ instance_marketplaces: INSTANCE });
      const personal = new PersonalMarketplaces(
        marketplacesOf(repositories, config, gitUrlsOf(config)).registry,
        repositories.marketplaces,
      );
      expect(
        (await save(user, { llm_model: 'first/model', registered_marketplaces: [{ source: 'github:acme/one' }] }))
          .status,
      ).toBe(200);

      const write = await personal.replacement(user.id, [{ source: 'github:acme/two' }]);
      // The settings' own write fails after the list's (JSON cannot hold a BigInt): the list goes back too.
      const unwritable = { llm_model: 2n } as unknown as Record<string, string>;
      await expect(repositories.settings.update(user.id, unwritable, write)).rejects.toThrow(/BigInt/);
      const settings = await settingsOf(user, false);
      expect(settings.llm_model).toBe('first/model');
      expect(names(settings.registered_marketplaces)).toEqual(['one']);

      await repositories.settings.update(user.id, { llm_model: 'second/model' }, write);
      const changed = await settingsOf(user, false);
      expect(changed.llm_model).toBe('second/model');
      expect(names(changed.registered_marketplaces)).toEqual(['two']);
    });

    it('keeps a reviewed entry’s approved commit when the list is posted back, drops it with follow', async () => {
      const user = await api().user();
      // Each database's run starts from a commit of its own (the repository is shared by both runs).
      const reviewedSha = await reviewed.commit({ 'README.md': `${user.id}\n` });
      const entry = { source: 'github:acme/reviewed', updates: 'review' };
      expect((await save(user, { registered_marketplaces: [entry] })).status).toBe(200);
      const settings = (await api().call('/api/v1/settings', { as: user })).body;
      expect(settings.registered_marketplaces).toMatchObject([{ name: 'reviewed', approved_ref: reviewedSha }]);

      await reviewed.commit({ 'README.md': 'moved on\n' });
      expect((await save(user, { registered_marketplaces: settings.registered_marketplaces })).status).toBe(200);
      expect((await settingsOf(user, false)).registered_marketplaces[0].approved_ref).toBe(reviewedSha);

      expect((await save(user, { registered_marketplaces: [{ ...entry, updates: 'follow' }] })).status).toBe(200);
      expect((await settingsOf(user, false)).registered_marketplaces[0]).toMatchObject({ approved_ref: null });
    });

    it('documents the fields with the marketplaces’ schemas (OpenAPI)', async () => {
      const document = (await api().call('/openapi.json')).body;
      const { schemas } = document.components;
      for (const field of ['registered_marketplaces', 'inherited_marketplaces']) {
        expect(schemas.Settings.properties[field].items.$ref).toBe('#/components/schemas/Marketplace');
        expect(schemas.Settings.required).toContain(field);
      }
      const written = schemas.SettingsUpdate.properties.registered_marketplaces;
      expect(written.items.$ref).toBe('#/components/schemas/MarketplaceRegistration');
      expect(schemas.MarketplaceRegistration.required).toEqual(['source']);
      expect(Object.keys(document.paths['/api/v1/settings'].post.responses)).toContain('409');
    });

    it('shares one list with /marketplaces, both ways', async () => {
      const user = await api().user();
      await save(user, { registered_marketplaces: [{ source: 'github:acme/viasettings', auto_load: true }] });
      const listed = (await api().call('/api/v1/marketplaces', { as: user })).body.items;
      expect(listed.filter((item: { scope: string }) => item.scope === 'personal')).toMatchObject([
        { name: 'viasettings', auto_load: true, writable: true },
      ]);
      await post(api(), user, '/api/v1/marketplaces', { source: 'github:acme/viaapi' });
      expect(await personalNames(user)).toEqual(['viasettings', 'viaapi']);
      const removed = await api().call('/api/v1/marketplaces/personal/viasettings', { method: 'DELETE', as: user });
      expect(removed.status).toBe(204);
      expect(await personalNames(user)).toEqual(['viaapi']);
    });
  },
  options,
);

/** A GET's body as a client posts it back (the whole `agent_settings` is sent as its diff, as OpenHands requires). */
function withoutWriteOnly(settings: Record<string, unknown>): Record<string, unknown> {
  const { agent_settings, conversation_settings, ...rest } = settings;
  return rest;
}
