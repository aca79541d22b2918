import { beforeAll, expect, it } from 'vitest';
import { TestRepository } from '../../../sources/test/git/support.ts';
import { gitRemotes } from '../support/git-remotes.ts';
import { type TestUser, describeApi } from './harness.ts';
import { MARKET, acmeWithRoles, post } from './marketplace-org.ts';

const SKILLS = '/api/v1/skills/search';

/** A repository per database's run, moved by the cache test. */
const moving = new Map<string, TestRepository>();
/** The commit of `acme/tools`. */
let toolsCommit = '';

/** A plugin holding only an agent, and two plugins shipping a skill of the same name. */
const AGENTS_MARKET: Record<string, string> = {
  '.plugin/marketplace.json': JSON.stringify({
    name: 'agents',
    plugins: ['reviewer', 'discord', 'telegram'].map((name) => ({ name, source: `./${name}` })),
  }),
  'reviewer/agents/critic.md': '---\nname: critic\ndescription: A harsh critic\n---\nBe harsh.\n',
  'discord/skills/configure/SKILL.md': '---\nname: configure\ndescription: Configures discord.\n---\nDo it.\n',
  'telegram/skills/configure/SKILL.md': '---\nname: configure\ndescription: Configures telegram.\n---\nDo it.\n',
};

const { options } = gitRemotes(
  'bosun-skills-search-',
  async (dir) => {
    await (await TestRepository.create(dir, 'acme/market')).commit(MARKET);
    toolsCommit = await (await TestRepository.create(dir, 'acme/tools')).commit(MARKET);
    await (await TestRepository.create(dir, 'acme/agents')).commit(AGENTS_MARKET);
    for (const dialect of ['sqlite', 'postgres']) {
      const repository = await TestRepository.create(dir, `acme/moving-${dialect}`);
      await repository.commit(MARKET);
      moving.set(dialect, repository);
    }
  },
  // The instance's marketplace is not auto-loaded: its skills are in no new conversation.
  { config: { git_allow_private_hosts: true, instance_marketplaces: ['github:acme/market#company###false'] } },
);

describeApi(
  'the skills of a new conversation (skills/search)',
  (api) => {
    let owner: TestUser;
    let member: TestUser;
    let orgId: string;
    beforeAll(async () => {
      ({ owner, member, orgId } = await acmeWithRoles(api()));
    });
    const skillsOf = async (user: TestUser, query = '', headers: Record<string, string> = {}) => {
      const answer = await api().call(`${SKILLS}${query}`, { as: user, headers });
      expect(answer.status, answer.text).toBe(200);
      return answer.body;
    };

    it('lists the skills and commands of the caller’s Auto-Load marketplaces only, turned-off ones marked', async () => {
      expect(await skillsOf(member)).toEqual({ items: [], next_page_id: null });
      const manual = await post(api(), member, '/api/v1/marketplaces', {
        source: 'github:acme/market',
        name: 'manual',
      });
      expect(manual.status, manual.text).toBe(201);
      expect((await skillsOf(member)).items).toEqual([]);

      const tools = await post(api(), member, '/api/v1/marketplaces', { source: 'github:acme/tools', auto_load: true });
      expect(tools.status, tools.text).toBe(201);
      const formatter = {
        source: 'personal',
        marketplace: 'tools',
        plugin: 'formatter',
        origin: 'marketplace',
        commit: toolsCommit,
      };
      expect(await skillsOf(member)).toEqual({
        items: [
          { ...formatter, name: 'formatter:tidy', type: 'agentskills', triggers: null, disabled: false },
          {
            ...formatter,
            name: 'formatter:format',
            type: 'knowledge',
            triggers: ['/formatter:format'],
            disabled: false,
          },
        ],
        next_page_id: null,
      });

      await post(api(), member, '/api/v1/settings', { disabled_skills: ['formatter:format'] });
      const paged = await skillsOf(member, '?limit=1');
      expect(paged.items).toEqual([expect.objectContaining({ name: 'formatter:tidy', disabled: false })]);
      expect(paged.next_page_id).toBe('1');
      const next = await skillsOf(member, `?limit=1&page_id=${paged.next_page_id}`);
      expect(next).toEqual({
        items: [expect.objectContaining({ name: 'formatter:format', disabled: true })],
        next_page_id: null,
      });
    });

    it('keeps what it read until a registration changes (a moved branch shows when the entry expires)', async () => {
      const user = await api().user();
      const registered = await post(api(), user, '/api/v1/marketplaces', {
        source: `github:acme/moving-${api().dialect}`,
        name: 'cached',
        auto_load: true,
      });
      expect(registered.status, registered.text).toBe(201);
      const names = async () => (await skillsOf(user)).items.map((skill: { name: string }) => skill.name);
      const before = await names();
      expect(before).toContain('formatter:tidy');
      await moving
        .get(api().dialect)
        ?.commit({ 'plugins/formatter/skills/fresh/SKILL.md': '---\nname: fresh\ndescription: Fresh.\n---\nNew.\n' });
      expect(await names()).toEqual(before);
      const patched = await api().call('/api/v1/marketplaces/personal/cached', {
        method: 'PATCH',
        as: user,
        body: { ref: 'main' },
      });
      expect(patched.status, patched.text).toBe(200);
      expect(await names()).toContain('formatter:fresh');
    });

    it('composes the organization the request acts in; another user sees none of the caller’s', async () => {
      const shared = await post(api(), owner, '/api/v1/marketplaces', {
        source: 'github:acme/market',
        name: 'shared',
        scope: 'organization',
        org_id: orgId,
        auto_load: true,
        expected_version: '0',
      });
      expect(shared.status, shared.text).toBe(201);
      const inOrg = await skillsOf(member, '', { 'X-Org-Id': orgId });
      expect(inOrg.items.map((s: { source: string; marketplace: string }) => `${s.source}:${s.marketplace}`)).toEqual([
        'organization:shared',
        'organization:shared',
        'personal:tools',
        'personal:tools',
      ]);
      expect((await skillsOf(owner)).items).toEqual([]);
      expect((await skillsOf(owner, '', { 'X-Org-Id': orgId })).items.map((s: { plugin: string }) => s.plugin)).toEqual(
        ['formatter', 'formatter'],
      );
      const stranger = await api().user();
      expect(await skillsOf(stranger)).toEqual({ items: [], next_page_id: null });
      expect((await api().call(SKILLS, { as: stranger, headers: { 'X-Org-Id': orgId } })).status).not.toBe(200);
    });

    it('lists a plugin’s agents and its skills by plugin, a short name turning off each plugin’s skill of it', async () => {
      const user = await api().user();
      const registered = await post(api(), user, '/api/v1/marketplaces', {
        source: 'github:acme/agents',
        auto_load: true,
      });
      expect(registered.status, registered.text).toBe(201);
      await post(api(), user, '/api/v1/settings', { disabled_skills: ['configure'] });
      const listed = (await skillsOf(user)).items.map((s: { name: string; type: string; disabled: boolean }) => [
        s.name,
        s.type,
        s.disabled,
      ]);
      expect(listed).toEqual([
        ['reviewer:critic', 'agent', false],
        ['discord:configure', 'agentskills', true],
        ['telegram:configure', 'agentskills', true],
      ]);
      const table = await api().call('/api/v1/skills-and-plugins', { as: user });
      expect(table.status, table.text).toBe(200);
      const reviewer = table.body.rows.find((row: { name: string }) => row.name === 'reviewer');
      expect(reviewer).toMatchObject({ skills: [], commands: [], agents: ['critic'], problems: [] });
    });

    it('refuses a bad page or limit (422 at its place) and a request without a credential', async () => {
      for (const [query, loc] of [
        ['limit=0', 'limit'],
        ['limit=101', 'limit'],
        ['page_id=x', 'page_id'],
        ['page_id=99', 'page_id'],
      ]) {
        const answer = await api().call(`${SKILLS}?${query}`, { as: member });
        expect(answer.status, query).toBe(422);
        expect(answer.body.detail[0].loc).toEqual(['query', loc]);
      }
      expect((await api().call(SKILLS)).status).toBe(401);
    });
  },
  options,
);
