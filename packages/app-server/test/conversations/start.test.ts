import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LlmReplay, startLlmReplay } from '@bosun/llm-replay';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type TestUser, describeApi } from '../api/harness.ts';
import { agentOfConversation, bareRepository, eventsUntil, streamStart } from './support.ts';

/** The provider base URL the app clones `owner/repo` from: bare repositories made by the tests. */
const remotes = mkdtempSync(join(tmpdir(), 'bosun-remotes-'));
const TOKEN = 'ghp_provider-token-never-shown';
const SECRET = 'request-secret-value-never-shown';

let llm: LlmReplay;
beforeAll(async () => {
  await bareRepository(remotes, 'acme/widgets', {
    main: { 'MAIN-MARKER.md': 'on main\n' },
    feature: { 'FEATURE-MARKER.md': 'on the feature branch\n' },
  });
  await bareRepository(remotes, 'acme/plugin', {
    main: {
      '.claude-plugin/plugin.json': JSON.stringify({ name: 'helper-kit', version: '1.0.0' }),
      'skills/helper/SKILL.md': '---\nname: helper\ndescription: Helps.\n---\nHELPER-SKILL\n',
    },
  });
  llm = await startLlmReplay({
    script: {
      turns: [
        {
          when: { last_user_message_contains: 'LIST-FILES' },
          tool_calls: [{ name: 'terminal', arguments: { command: 'ls' } }],
          times: 10,
        },
        {
          when: { last_tool_result_contains: 'FEATURE-MARKER.md' },
          tool_calls: [{ name: 'finish', arguments: { message: 'listed' } }],
          times: 10,
        },
        { when: { last_user_message_contains: 'AGAIN' }, content: 'Hello again.', times: 20 },
      ],
    },
  });
});
afterAll(async () => {
  await llm?.close();
  rmSync(remotes, { recursive: true, force: true });
});

describeApi(
  'conversations started through the application',
  (api) => {
    let owner: TestUser;
    let stranger: TestUser;
    let conversationId: string;
    let sandboxId: string;

    beforeAll(async () => {
      const settings = { llm_model: 'test-model', llm_base_url: llm.baseUrl, llm_api_key: 'llm-key-never-shown' };
      [owner, stranger] = await api().users(2, settings);
      await api().call('/api/v1/secrets/git-providers', {
        method: 'POST',
        as: owner,
        body: { provider_tokens: { github: { token: TOKEN } } },
      });
    });

    it('clones the repository on its branch in a new sandbox, and the agent lists it with the terminal', async () => {
      const { tasks, last, text } = await streamStart(api(), owner, {
        selected_repository: 'acme/widgets',
        selected_branch: 'feature',
        plugins: [{ source: 'github:acme/plugin', ref: 'main' }],
        confirmed_plugin_sources: [{ source: 'github:acme/plugin', commit: null }],
        secrets: { DEPLOY_KEY: SECRET },
        initial_message: { content: [{ type: 'text', text: 'LIST-FILES please' }] },
        processors: [{ kind: 'SetTitleCallbackProcessor' }],
      });
      expect(tasks.map((task) => task.status)).toEqual([
        'WORKING',
        'WAITING_FOR_SANDBOX',
        'PREPARING_REPOSITORY',
        'SETTING_UP_SKILLS',
        'STARTING_CONVERSATION',
        'READY',
      ]);
      expect(last).toMatchObject({ detail: null, problems: [], created_by_user_id: owner.id });
      expect(last.request).toEqual({
        selected_repository: 'acme/widgets',
        selected_branch: 'feature',
        plugins: [{ source: 'github:acme/plugin', ref: 'main' }],
        secrets: { DEPLOY_KEY: '**********' },
        initial_message: {
          role: 'user',
          content: [{ type: 'text', text: 'LIST-FILES please', cache_prompt: false }],
          run: false,
        },
      });
      for (const hidden of [TOKEN, SECRET, 'llm-key-never-shown']) expect(text).not.toContain(hidden);
      conversationId = last.app_conversation_id;
      sandboxId = last.sandbox_id;
      expect(sandboxId).toBe(conversationId.replaceAll('-', ''));

      const agent = await agentOfConversation(api(), owner, conversationId);
      const events = await eventsUntil(agent, conversationId, (event) => event.kind === 'ObservationEvent');
      const listing = JSON.stringify(events.at(-1));
      expect(listing).toContain('FEATURE-MARKER.md');
      expect(listing).toContain('MAIN-MARKER.md');
      const info = await agent.get('/api/conversations/{conversation_id}', {
        params: { conversation_id: conversationId },
      });
      expect(info.workspace.working_dir).toMatch(/\/workspace\/widgets$/);
      expect(info.resolved_plugins).toMatchObject([{ name: 'helper-kit', problems: [] }]);
      expect(JSON.stringify(info.secret_registry)).toContain('GITHUB_TOKEN');
      expect(JSON.stringify(info.secret_registry)).toContain('DEPLOY_KEY');
      for (const hidden of [TOKEN, SECRET, 'llm-key-never-shown']) expect(api().logs.join('\n')).not.toContain(hidden);
    });

    it('answers the conversation with its sandbox live, by id, search and count', async () => {
      const hex = conversationId.replaceAll('-', '');
      const batch = await api().call(`/api/v1/app-conversations?ids=${hex}&ids=${crypto.randomUUID()}`, { as: owner });
      expect(batch.status, batch.text).toBe(200);
      expect(batch.body[1]).toBeNull();
      expect(batch.body[0]).toMatchObject({
        id: conversationId,
        sandbox_id: sandboxId,
        selected_repository: 'acme/widgets',
        selected_branch: 'feature',
        git_provider: 'github',
        llm_model: 'test-model',
        sandbox_status: 'RUNNING',
        conversation_url: expect.stringMatching(
          new RegExp(`^http://127\\.0\\.0\\.1:\\d+/api/conversations/${conversationId}$`),
        ),
        session_api_key: expect.any(String),
      });
      // The agent server's own ConversationInfo, as its webhook posts it, is taken whole.
      const agent = await agentOfConversation(api(), owner, conversationId);
      const info = await agent.get('/api/conversations/{conversation_id}', {
        params: { conversation_id: conversationId },
      });
      const reported = await api().call('/api/v1/webhooks/conversations', {
        method: 'POST',
        headers: { 'X-Session-API-Key': batch.body[0].session_api_key },
        body: { ...info, title: 'Reported title' },
      });
      expect(reported.status, reported.text).toBe(200);
      const [updated] = (await api().call(`/api/v1/app-conversations?ids=${conversationId}`, { as: owner })).body;
      expect(updated).toMatchObject({
        title: 'Reported title',
        execution_status: info.execution_status,
        metrics: { model_name: info.metrics.model_name },
      });
      const search = await api().call(`/api/v1/app-conversations/search?sandbox_id__eq=${sandboxId}`, { as: owner });
      expect(search.body.items.map((item: { id: string }) => item.id)).toEqual([conversationId]);
      const count = await api().call('/api/v1/app-conversations/count?title__contains=REPORTED', { as: owner });
      expect(count.body).toBe(1);
      expect((await api().call('/api/v1/app-conversations/count', { as: stranger })).body).toBe(0);
      const tasks = await api().call(`/api/v1/app-conversations/start-tasks/search?conversation_id__eq=${hex}`, {
        as: owner,
      });
      expect(tasks.body.items).toMatchObject([{ status: 'READY', app_conversation_id: conversationId }]);
    });

    it('sends a message; 409 while the sandbox is paused; after resume it is taken again', async () => {
      const send = (as: TestUser) =>
        api().call(`/api/v1/app-conversations/${conversationId}/send-message`, {
          method: 'POST',
          as,
          body: { content: [{ type: 'text', text: 'AGAIN' }] },
        });
      const sent = await send(owner);
      expect(sent.status, sent.text).toBe(200);
      expect(sent.body).toEqual({ success: true, sandbox_status: 'RUNNING', message: null });
      expect((await send(stranger)).status).toBe(404);

      const paused = await api().call(`/api/v1/app-conversations/${conversationId}/pause`, {
        method: 'POST',
        as: owner,
      });
      expect(paused.status, paused.text).toBe(200);
      const refused = await send(owner);
      expect(refused.status).toBe(409);
      expect(refused.body.detail).toMatch(/PAUSED: resume it/);
      const [view] = (await api().call(`/api/v1/app-conversations?ids=${conversationId}`, { as: owner })).body;
      expect(view).toMatchObject({ sandbox_status: 'PAUSED', conversation_url: null, session_api_key: null });

      const resumed = await api().call(`/api/v1/app-conversations/${conversationId}/resume`, {
        method: 'POST',
        as: owner,
      });
      expect(resumed.status, resumed.text).toBe(200);
      expect((await send(owner)).status).toBe(200);

      const renamed = await api().call(`/api/v1/app-conversations/${conversationId}`, {
        method: 'PATCH',
        as: owner,
        body: { title: 'Widgets, listed' },
      });
      expect(renamed.status, renamed.text).toBe(200);
      expect(renamed.body).toMatchObject({ title: 'Widgets, listed', sandbox_status: 'RUNNING' });
      const agent = await agentOfConversation(api(), owner, conversationId);
      expect(
        (await agent.get('/api/conversations/{conversation_id}', { params: { conversation_id: conversationId } }))
          .title,
      ).toBe('Widgets, listed');
    });

    it('ends in ERROR with what to do: an unknown sandbox, a repository that is not there, a broken plugin is a problem', async () => {
      const unknown = await streamStart(api(), owner, { sandbox_id: 'no-such-sandbox' });
      expect(unknown.last).toMatchObject({ status: 'ERROR', detail: 'Sandbox not found' });
      const theirs = await streamStart(api(), stranger, { sandbox_id: sandboxId });
      expect(theirs.last).toMatchObject({ status: 'ERROR', detail: 'Sandbox not found' });

      const missing = await streamStart(api(), owner, { sandbox_id: sandboxId, selected_repository: 'acme/missing' });
      expect(missing.last.status).toBe('ERROR');
      expect(missing.last.detail).toMatch(/^Could not clone acme\/missing from file:\/\/.*acme\/missing\.git: /);
      const branch = await streamStart(api(), owner, {
        sandbox_id: sandboxId,
        selected_repository: 'acme/widgets',
        selected_branch: 'no-such-branch',
      });
      expect(branch.last.detail).toMatch(/^Could not check out branch no-such-branch of acme\/widgets: /);

      const broken = await streamStart(api(), owner, {
        sandbox_id: sandboxId,
        plugins: [{ source: `file://${remotes}/acme/no-plugin.git` }],
        confirmed_plugin_sources: [{ source: `file://${remotes}/acme/no-plugin.git`, commit: null }],
      });
      expect(broken.last.status).toBe('READY');
      expect(broken.last.problems).toEqual([
        expect.stringMatching(/^no-plugin \(file:\/\/.*no-plugin\.git\): error: /),
      ]);
      const taken = await streamStart(api(), owner, { sandbox_id: sandboxId, conversation_id: conversationId });
      expect(taken.last.detail).toBe(
        `A conversation with id ${conversationId} exists already: leave conversation_id out to get a new one`,
      );
      // A paused sandbox named by the start is resumed for it.
      await api().call(`/api/v1/sandboxes/${sandboxId}/pause`, { method: 'POST', as: owner });
      const chosen = crypto.randomUUID();
      const given = await streamStart(api(), owner, {
        sandbox_id: sandboxId,
        conversation_id: chosen.replaceAll('-', '').toUpperCase(),
        title: `  ${'Instructions. '.repeat(30)}`,
      });
      expect(given.last).toMatchObject({ status: 'READY', app_conversation_id: chosen, problems: [] });
      const [titled] = (await api().call(`/api/v1/app-conversations?ids=${chosen}`, { as: owner })).body;
      expect(titled.title).toBe('Instructions. '.repeat(30).trim().slice(0, 200));
      expect((await api().call('/api/v1/app-conversations/count', { as: owner })).body).toBe(3);

      // Two conversations share the sandbox: pausing one pauses its agent only, the sandbox runs on.
      const id = broken.last.app_conversation_id;
      const paused = await api().call(`/api/v1/app-conversations/${id}/pause`, { method: 'POST', as: owner });
      expect(paused.status, paused.text).toBe(200);
      const [sandbox] = (await api().call(`/api/v1/sandboxes?id=${sandboxId}`, { as: owner })).body;
      expect(sandbox.status).toBe('RUNNING');
    });

    it('refuses to start without an LLM before starting any sandbox', async () => {
      const { last } = await streamStart(api(), await api().user(), {});
      expect(last).toMatchObject({ status: 'ERROR', sandbox_id: null });
      expect(last.detail).toMatch(/^No LLM is configured/);
    });

    it('deletes a conversation, and the sandbox with the last one', async () => {
      const list = (await api().call('/api/v1/app-conversations/search', { as: owner })).body.items;
      expect(list.at(-1).id).toBe(conversationId);
      for (const [index, item] of list.entries()) {
        const agent = await agentOfConversation(api(), owner, item.id);
        const deleted = await api().call(`/api/v1/app-conversations/${item.id}`, { method: 'DELETE', as: owner });
        expect(deleted.status, deleted.text).toBe(200);
        if (index < list.length - 1) {
          await expect(
            agent.get('/api/conversations/{conversation_id}', { params: { conversation_id: item.id } }),
          ).rejects.toMatchObject({ status: 404 });
        }
        const [sandbox] = (await api().call(`/api/v1/sandboxes?id=${sandboxId}`, { as: owner })).body;
        if (index < list.length - 1) expect(sandbox?.status).toBe('RUNNING');
        else expect(sandbox).toBeNull();
      }
    });
  },
  { config: { git_github_url: `file://${remotes}` } },
);
