import { type LlmReplay, startLlmReplay } from '@bosun/llm-replay';
import type { StoredEvent } from '@bosun/protocol';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { TestRepository } from '../../../sources/test/git/support.ts';
import { type TestUser, describeApi } from '../api/harness.ts';
import { gitRemotes } from '../support/git-remotes.ts';
import { agentOfConversation, eventsUntil, streamStart } from './support.ts';

/** A marketplace of one plugin (`plugin`) bringing a skill and a hook. */
function marketplace(plugin: string): Record<string, string> {
  return {
    '.plugin/marketplace.json': JSON.stringify({
      name: `${plugin}-market`,
      owner: { name: 'Acme' },
      plugins: [{ name: plugin, source: `./plugins/${plugin}` }],
    }),
    [`plugins/${plugin}/.plugin/plugin.json`]: JSON.stringify({ name: plugin }),
    [`plugins/${plugin}/skills/${plugin}-skill/SKILL.md`]: `---\nname: ${plugin}-skill\ndescription: From ${plugin}.\n---\nUse ${plugin}.\n`,
    [`plugins/${plugin}/hooks/hooks.json`]: JSON.stringify({
      hooks: { PreToolUse: [{ matcher: 'terminal', hooks: [{ type: 'command', command: 'true' }] }] },
    }),
  };
}

/** The system prompt event of a conversation, as text. */
const systemPrompt = (events: StoredEvent[]) => JSON.stringify(events.find((e) => e.kind === 'SystemPromptEvent'));

let llm: LlmReplay;
const commits: Record<string, string> = {};

const remotes = gitRemotes(
  'bosun-auto-load-',
  async (dir) => {
    for (const plugin of ['formatter', 'linter']) {
      const repository = await TestRepository.create(dir, `acme/${plugin}-market`);
      commits[plugin] = await repository.commit(marketplace(plugin));
    }
  },
  { config: { git_allow_private_hosts: true } },
);
beforeAll(async () => {
  llm = await startLlmReplay({
    script: { turns: [{ when: { last_user_message_contains: 'HELLO' }, content: 'Hi.', times: 20 }] },
  });
});
afterAll(async () => {
  await llm?.close();
});

describeApi(
  'Auto-Load: the marketplaces of new conversations',
  (api) => {
    let user: TestUser;
    beforeAll(async () => {
      user = await api().user({ llm_model: 'test-model', llm_base_url: llm.baseUrl, llm_api_key: 'llm-key' });
    });
    const register = (body: object) =>
      api().call('/api/v1/marketplaces', { method: 'POST', as: user, body: { auto_load: true, ...body } });
    const conversation = async (id: string) =>
      (await api().call(`/api/v1/app-conversations?ids=${id}`, { as: user })).body[0];
    const hello = { content: [{ type: 'text', text: 'HELLO' }] };

    it('loads them into a new conversation at a recorded commit, never into a running one; a broken one is a problem; a disabled skill stays out', async () => {
      expect((await register({ source: 'github:acme/formatter-market' })).status).toBe(201);
      expect((await register({ source: 'github:acme/missing', name: 'broken' })).status).toBe(201);
      const first = await streamStart(api(), user, { initial_message: hello });
      expect(first.last.status, first.text).toBe('READY');
      expect(first.last.problems).toEqual([expect.stringMatching(/^marketplace broken \(personal\): not loaded: /)]);
      const firstId: string = first.last.app_conversation_id;
      const agent = await agentOfConversation(api(), user, firstId);
      const firstEvents = await eventsUntil(
        agent,
        firstId,
        (event) => event.kind === 'MessageEvent' && event.source === 'agent',
      );
      expect(systemPrompt(firstEvents)).toContain('<name>formatter:formatter-skill</name>');

      const recorded = await conversation(firstId);
      expect(recorded.loaded_marketplaces).toEqual([
        expect.objectContaining({
          name: 'formatter-market',
          scope: 'personal',
          resolved_ref: commits.formatter,
          registered_by: user.id,
          problem: null,
        }),
        expect.objectContaining({ name: 'broken', resolved_ref: null, problem: expect.any(String) }),
      ]);
      expect(recorded.loaded_plugins).toMatchObject([{ name: 'formatter', resolved_ref: commits.formatter }]);
      const info = await agent.get('/api/conversations/{conversation_id}', { params: { conversation_id: firstId } });
      expect(info.resolved_plugins).toMatchObject([
        { name: 'formatter', marketplace: 'formatter-market', resolved_ref: commits.formatter, problems: [] },
      ]);

      // A marketplace registered now reaches the next conversation (in the same sandbox), not the running one; a
      // skill the user turns off stays out of it though its plugin brings it.
      expect((await register({ source: 'github:acme/linter-market' })).status).toBe(201);
      const disable = { disabled_skills: ['formatter-skill'] };
      expect((await api().call('/api/v1/settings', { method: 'POST', as: user, body: disable })).status).toBe(200);
      const second = await streamStart(api(), user, { sandbox_id: first.last.sandbox_id, initial_message: hello });
      expect(second.last.status, second.text).toBe('READY');
      const secondId: string = second.last.app_conversation_id;
      const secondEvents = await eventsUntil(
        agent,
        secondId,
        (event) => event.kind === 'MessageEvent' && event.source === 'agent',
      );
      expect(systemPrompt(secondEvents)).toContain('<name>linter:linter-skill</name>');
      expect(systemPrompt(secondEvents)).not.toContain('formatter-skill');
      const secondInfo = await agent.get('/api/conversations/{conversation_id}', {
        params: { conversation_id: secondId },
      });
      expect(secondInfo.resolved_plugins.map((p) => [p.name, p.resolved_ref])).toEqual([
        ['formatter', commits.formatter],
        ['linter', commits.linter],
      ]);
      expect(
        (
          await agent.get('/api/conversations/{conversation_id}', { params: { conversation_id: firstId } })
        ).resolved_plugins.map((p) => p.name),
      ).toEqual(['formatter']);
      expect((await conversation(firstId)).loaded_marketplaces).toHaveLength(2);
      expect((await conversation(secondId)).loaded_marketplaces.map((m: { name: string }) => m.name)).toEqual([
        'formatter-market',
        'broken',
        'linter-market',
      ]);
    }, 180_000);
  },
  remotes.options,
);
