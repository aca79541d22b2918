import { randomUUID } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { TestRepository } from '../../../sources/test/git/support.ts';
import { type Api, type TestUser, describeApi } from '../api/harness.ts';
import { newConversation } from '../events/support.ts';
import { gitRemotes } from '../support/git-remotes.ts';
import { agentOfConversation, streamStart } from './support.ts';

const skillMd = (name: string, body: string) => `---\nname: ${name}\ndescription: ${body}\n---\n${body}\n`;

/** The content of the conversation's skill `name`, as the app lists the conversation's skills. */
async function skillContent(api: Api, user: TestUser, id: string, name: string): Promise<string | undefined> {
  const answer = await api.call(`/api/v1/app-conversations/${id}/skills`, { as: user });
  expect(answer.status, answer.text).toBe(200);
  return answer.body.skills.find((skill: { name: string }) => skill.name === name)?.content;
}

let tools: TestRepository;
const remotes = gitRemotes(
  'bosun-plugin-skills-',
  async (dir) => {
    tools = await TestRepository.create(dir, 'acme/tools');
    await tools.commit({
      'kit/.plugin/plugin.json': JSON.stringify({ name: 'kit' }),
      'kit/skills/release/SKILL.md': skillMd('release', 'Release with the kit.'),
    });
  },
  { config: { git_allow_private_hosts: true } },
);

describeApi(
  'a conversation’s skills include those of the plugins named at its start',
  (api) => {
    let user: TestUser;
    beforeAll(async () => {
      user = await api().user({ llm_model: 'test-model', llm_api_key: 'llm-key' });
    });

    it('lists the plugin’s skills, at the commit the conversation loaded (the app’s pin, else the agent’s)', async () => {
      const plugin = { source: 'github:acme/tools', ref: 'main', repo_path: 'kit' };
      const loaded = `Release on ${api().dialect}.`;
      await tools.commit({ 'kit/skills/release/SKILL.md': skillMd('release', loaded) });
      const started = await streamStart(api(), user, {
        plugins: [plugin],
        confirmed_plugin_sources: [{ source: plugin.source, commit: null }],
      });
      expect(started.last.status, started.text).toBe('READY');
      // The branch moves on after the start: the conversation keeps the commit it loaded, and so does the listing.
      await tools.commit({ 'kit/skills/release/SKILL.md': skillMd('release', `${loaded} Later.`) });
      const id: string = started.last.app_conversation_id;
      const answer = await api().call(`/api/v1/app-conversations/${id}/skills`, { as: user });
      expect(answer.status, answer.text).toBe(200);
      const release = answer.body.skills.find((skill: { name: string }) => skill.name === 'kit:release');
      expect(release).toMatchObject({ type: 'agentskills', content: loaded });

      // Started on the agent server by another client, naming the branch: listed at the commit its agent loaded.
      const agent = await agentOfConversation(api(), user, id);
      const direct = randomUUID();
      const workspace = (await agent.get('/api/conversations/{conversation_id}', { params: { conversation_id: id } }))
        .workspace;
      await agent.post('/api/conversations', {
        body: {
          conversation_id: direct,
          agent: { llm: { model: 'openai/unused', api_key: 'sk-unused' }, tools: [] },
          workspace: { working_dir: workspace.working_dir },
          plugins: [plugin],
        },
      });
      await newConversation(api(), user.id, started.last.sandbox_id, direct);
      expect(await skillContent(api(), user, direct, 'kit:release')).toBe(`${loaded} Later.`);
      await tools.commit({ 'kit/skills/release/SKILL.md': skillMd('release', 'Moved on again.') });
      expect(await skillContent(api(), user, direct, 'kit:release')).toBe(`${loaded} Later.`);
    }, 120_000);
  },
  remotes.options,
);
