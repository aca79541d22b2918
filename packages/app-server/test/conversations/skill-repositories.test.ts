import { type LlmReplay, startLlmReplay } from '@bosun/llm-replay';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { AppServerConfig } from '../../src/index.ts';
import { type TestUser, describeApi } from '../api/harness.ts';
import { type SkillHost, skillHost } from '../support/skill-host.ts';
import { agentOfConversation, eventsUntil, readyStart } from './support.ts';

const ALICE_GITHUB = 'ghp_alice-github-token';
const ALICE_GITLAB = 'glpat-alice-gitlab-token';
const SOMEONE_ELSE = 'ghp_someone-else-token';

const skill = (name: string, body: string) => `---\nname: ${name}\ndescription: ${body}\n---\n${body}\n`;

/**
 * Two providers on loopback. GitHub: the organization `acme` (`.agents`, and the legacy `.bosun` defining one name
 * again), the user `alice` (`.agents` only), and `locked`, whose `.agents` alice's token may not read. GitLab: the
 * group `orgb` (`bosun-config`), read with alice's GitLab token only.
 */
let github: SkillHost;
let gitlab: SkillHost;
let llm: LlmReplay;
const options = { config: {} as Partial<AppServerConfig> };
beforeAll(async () => {
  const app = { 'README.md': 'app\n' };
  github = await skillHost({
    logins: { [ALICE_GITHUB]: 'alice', [SOMEONE_ELSE]: 'someone' },
    repositories: {
      'acme/app': app,
      'acme/.agents': {
        'skills/acme-style/SKILL.md': skill('acme-style', 'Write as Acme does.'),
        'skills/shared/SKILL.md': skill('shared', 'The current shared skill.'),
      },
      'acme/.bosun': {
        'skills/shared/SKILL.md': skill('shared', 'The legacy shared skill.'),
        'skills/legacy-only/SKILL.md': skill('legacy-only', 'Only in the legacy repository.'),
      },
      'alice/.agents': { 'skills/alice-notes/SKILL.md': skill('alice-notes', 'Alice takes notes.') },
      'locked/app': app,
      'locked/.agents': { 'skills/locked-secret/SKILL.md': skill('locked-secret', 'Never seen.') },
    },
    readers: {
      'acme/app': [ALICE_GITHUB],
      'acme/.agents': [ALICE_GITHUB],
      'acme/.bosun': [ALICE_GITHUB],
      'alice/.agents': [ALICE_GITHUB],
      'locked/.agents': [SOMEONE_ELSE],
    },
  });
  gitlab = await skillHost({
    logins: { [ALICE_GITLAB]: 'alice-gl' },
    repositories: {
      'orgb/app': app,
      'orgb/bosun-config': { 'skills/orgb-review/SKILL.md': skill('orgb-review', 'Review as orgb does.') },
    },
    readers: { 'orgb/app': [ALICE_GITLAB], 'orgb/bosun-config': [ALICE_GITLAB] },
  });
  options.config = { git_github_url: github.url, git_gitlab_url: gitlab.url, git_allow_private_hosts: true };
  llm = await startLlmReplay({
    script: { turns: [{ when: { last_user_message_contains: 'HELLO' }, content: 'Hi.', times: 20 }] },
  });
});
afterAll(async () => {
  await llm?.close();
  await github?.close();
  await gitlab?.close();
});

/** The requests of a host for one repository's Git endpoints. */
const asked = (host: SkillHost, repository: string) =>
  host.requests.filter((request) => request.path.startsWith(`/${repository}.git/`));

describeApi(
  'organization and user skills repositories of a conversation',
  (api) => {
    let alice: TestUser;
    beforeAll(async () => {
      alice = await api().user({ llm_model: 'test-model', llm_base_url: llm.baseUrl, llm_api_key: 'llm-key' });
      const provider_tokens = { github: { token: ALICE_GITHUB }, gitlab: { token: ALICE_GITLAB } };
      const stored = await api().call('/api/v1/secrets/git-providers', {
        method: 'POST',
        as: alice,
        body: { provider_tokens },
      });
      expect(stored.status, stored.text).toBeLessThan(300);
    });
    const skillsOf = async (id: string) => {
      const answer = await api().call(`/api/v1/app-conversations/${id}/skills`, { as: alice });
      expect(answer.status, answer.text).toBe(200);
      return answer.body;
    };

    it("gives the agent the organization's and the user's .agents skills at the commits resolved at the start; a name also in the legacy .bosun is an error and .agents wins", async () => {
      const before = github.requests.length;
      const task = await readyStart(api(), alice, { selected_repository: 'acme/app', git_provider: 'github' });
      const clash = task.problems.filter((line: string) => line.includes("skill 'shared' is defined both"));
      expect(clash, JSON.stringify(task.problems)).toHaveLength(1);
      expect(task.problems.filter((line: string) => / skills repository of /.test(line))).toEqual([]);
      const id = task.app_conversation_id as string;

      const agent = await agentOfConversation(api(), alice, id);
      const info = await agent.get('/api/conversations/{conversation_id}', { params: { conversation_id: id } });
      expect(info.agent.agent_context?.skill_repositories).toEqual([
        { source: 'github:acme/.agents', scope: 'organization', ref: github.commits['acme/.agents'] },
        { source: 'github:acme/.bosun', scope: 'organization', ref: github.commits['acme/.bosun'] },
        { source: 'github:alice/.agents', scope: 'user', ref: github.commits['alice/.agents'] },
      ]);

      const listed = await skillsOf(id);
      const byName = (name: string) => listed.skills.find((s: { name: string }) => s.name === name);
      expect(byName('acme-style')).toMatchObject({
        origin: 'organization_repository',
        origin_source: 'github:acme/.agents',
        commit: github.commits['acme/.agents'],
      });
      expect(byName('shared')).toMatchObject({ origin_source: 'github:acme/.agents' });
      expect(byName('shared').content).toContain('The current shared skill.');
      expect(byName('legacy-only')).toMatchObject({
        origin: 'organization_repository',
        origin_source: 'github:acme/.bosun',
        commit: github.commits['acme/.bosun'],
      });
      expect(byName('alice-notes')).toMatchObject({
        origin: 'user_repository',
        origin_source: 'github:alice/.agents',
        commit: github.commits['alice/.agents'],
      });
      expect(listed.diagnostics).toContainEqual(
        expect.objectContaining({
          severity: 'error',
          message: expect.stringContaining("skill 'shared' is defined both"),
        }),
      );
      expect(listed.repositories).toEqual([
        expect.objectContaining({
          source: 'github:acme/.agents',
          owner: 'acme',
          resolved_ref: github.commits['acme/.agents'],
          problem: null,
        }),
        expect.objectContaining({ source: 'github:acme/.bosun', resolved_ref: github.commits['acme/.bosun'] }),
        expect.objectContaining({
          source: 'github:alice/.agents',
          scope: 'user',
          resolved_ref: github.commits['alice/.agents'],
        }),
        expect.objectContaining({
          source: 'github:alice/.bosun',
          resolved_ref: null,
          problem: expect.stringMatching(/^no such repository/),
        }),
      ]);
      // Another organization's repository is never asked for, and no token reaches the other provider's host.
      expect(github.requests.slice(before).filter((request) => request.path.startsWith('/locked/'))).toEqual([]);
      expect(gitlab.requests.filter((request) => request.token === ALICE_GITHUB)).toEqual([]);
      expect(JSON.stringify(listed)).not.toContain(ALICE_GITHUB);
      for (const text of [JSON.stringify(task), api().logs.join('\n')]) expect(text).not.toContain(ALICE_GITHUB);
    });

    it("the conversation's agent has them: their skills are in its system prompt", async () => {
      const hello = { content: [{ type: 'text', text: 'HELLO' }] };
      const task = await readyStart(api(), alice, { selected_repository: 'acme/app', initial_message: hello });
      const id = task.app_conversation_id as string;
      const agent = await agentOfConversation(api(), alice, id);
      const events = await eventsUntil(agent, id, (e) => e.kind === 'MessageEvent' && e.source === 'agent');
      const prompt = JSON.stringify(events.find((e) => e.kind === 'SystemPromptEvent'));
      for (const name of ['acme-style', 'legacy-only', 'alice-notes']) expect(prompt).toContain(`<name>${name}</name>`);
    });

    it('skips a repository the token cannot read, saying so on the start task and in the skills, and the conversation starts', async () => {
      const task = await readyStart(api(), alice, { selected_repository: 'locked/app', git_provider: 'github' });
      expect(task.problems).toContainEqual(
        expect.stringMatching(
          /^organization skills repository of locked: skipped: github:locked\/\.agents and github:locked\/\.bosun: no such repository, or your github token cannot read it/,
        ),
      );
      // The request for it went with alice's token, and nothing of it was loaded.
      expect(asked(github, 'locked/.agents').some((request) => request.token === ALICE_GITHUB)).toBe(true);
      const listed = await skillsOf(task.app_conversation_id as string);
      expect(listed.skills.map((s: { name: string }) => s.name)).not.toContain('locked-secret');
      expect(listed.skills.map((s: { name: string }) => s.name)).toContain('alice-notes');
      expect(listed.repositories).toContainEqual(
        expect.objectContaining({
          source: 'github:locked/.agents',
          resolved_ref: null,
          problem: expect.stringContaining('cannot read it'),
        }),
      );
    });

    it("reads a GitLab group's bosun-config with the GitLab token only: the GitHub token never reaches it, nor the GitLab token GitHub", async () => {
      const githubBefore = github.requests.length;
      const task = await readyStart(api(), alice, { selected_repository: 'orgb/app', git_provider: 'gitlab' });
      const listed = await skillsOf(task.app_conversation_id as string);
      expect(listed.skills.find((s: { name: string }) => s.name === 'orgb-review')).toMatchObject({
        origin: 'organization_repository',
        origin_source: 'gitlab:orgb/bosun-config',
        commit: gitlab.commits['orgb/bosun-config'],
      });
      // Alice's GitLab account has no bosun-config of its own: skipped, said on the task.
      expect(task.problems).toContainEqual(
        expect.stringMatching(/^user skills repository of alice-gl: skipped: gitlab:alice-gl\/bosun-config: /),
      );
      const tokens = new Set(asked(gitlab, 'orgb/bosun-config').map((request) => request.token));
      expect([...tokens].filter(Boolean)).toEqual([ALICE_GITLAB]);
      expect(gitlab.requests.some((request) => request.token === ALICE_GITHUB)).toBe(false);
      expect(github.requests.slice(githubBefore)).toEqual([]);
    });

    it("without a selected repository looks for the user's own on each provider they connected", async () => {
      const task = await readyStart(api(), alice, {});
      const listed = await skillsOf(task.app_conversation_id as string);
      expect(listed.skills.find((s: { name: string }) => s.name === 'alice-notes')).toMatchObject({
        origin: 'user_repository',
      });
      expect(listed.skills.map((s: { name: string }) => s.name)).not.toContain('acme-style');
      expect(listed.repositories.map((r: { source: string }) => r.source).sort()).toEqual([
        'github:alice/.agents',
        'github:alice/.bosun',
        'gitlab:alice-gl/bosun-config',
      ]);
    });

    it('lists the skills repositories in the Skills & Plugins table: each read with its skills and commit, an owner without one saying why', async () => {
      const off = await api().call('/api/v1/settings', {
        method: 'POST',
        as: alice,
        body: { disabled_skills: ['alice-notes'] },
      });
      expect(off.status, off.text).toBe(200);
      const answer = await api().call('/api/v1/skills-and-plugins', { as: alice });
      expect(answer.status, answer.text).toBe(200);
      const rows = answer.body.rows.filter((row: { kind: string }) => row.kind === 'skill_repository');
      // alice's own .agents (its legacy .bosun, absent, is no row), and on GitLab a line saying hers was not read.
      expect(rows).toEqual([
        expect.objectContaining({
          name: 'alice/.agents',
          origin: 'user_repository',
          scope: 'personal',
          source: 'github:alice/.agents',
          resolved_ref: github.commits['alice/.agents'],
          skills: ['alice-notes'],
          disabled_skills: ['alice-notes'],
          problems: [],
        }),
        expect.objectContaining({
          name: 'alice-gl/bosun-config',
          origin: 'user_repository',
          resolved_ref: null,
          skills: [],
          problems: [
            expect.objectContaining({ severity: 'warning', message: expect.stringMatching(/^no such repository/) }),
          ],
        }),
      ]);
      // Tokens are the server's: never in the table.
      expect(answer.text).not.toContain(ALICE_GITHUB);
      expect(answer.text).not.toContain(ALICE_GITLAB);
      const back = await api().call('/api/v1/settings', { method: 'POST', as: alice, body: { disabled_skills: [] } });
      expect(back.status, back.text).toBe(200);
    });
  },
  options,
);
