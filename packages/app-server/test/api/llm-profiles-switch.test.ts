import { randomUUID } from 'node:crypto';
import { type LlmReplay, startLlmReplay } from '@bosun/llm-replay';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { agentOfConversation, eventsUntil, readyStart } from '../conversations/support.ts';
import { until } from '../support/until.ts';
import { type TestUser, describeApi } from './harness.ts';

const FIRST_KEY = 'sk-first-settings-key';
const PROFILE_KEY = 'sk-profile-key-3e9a';
let first: LlmReplay;
let second: LlmReplay;
beforeAll(async () => {
  first = await startLlmReplay({ script: { turns: [{ content: 'From the settings.' }] }, apiKey: FIRST_KEY });
  second = await startLlmReplay({
    script: { turns: [{ content: 'From the profile.', times: 2 }] },
    apiKey: PROFILE_KEY,
  });
});
afterAll(async () => {
  await Promise.all([first?.close(), second?.close()]);
});

describeApi('switching a conversation to an LLM profile', (api) => {
  let owner: TestUser;
  let stranger: TestUser;
  let conversationId: string;
  let sandboxId: string;
  const switchTo = (id: string, profile_name: unknown, as: TestUser = owner) =>
    api().call(`/api/v1/app-conversations/${id}/switch_profile`, { method: 'POST', as, body: { profile_name } });
  const view = async (id: string) => (await api().call(`/api/v1/app-conversations?ids=${id}`, { as: owner })).body[0];
  const rowOnly = async (sandbox: string) => {
    const id = randomUUID();
    const now = new Date().toISOString();
    const row = { id, user_id: owner.id, sandbox_id: sandbox, title: 'Row only', created_at: now, updated_at: now };
    await api().repositories.conversations.create(row);
    return id;
  };

  beforeAll(async () => {
    first.reset();
    second.reset();
    owner = await api().user({
      llm_model: 'openai/settings-model',
      llm_base_url: first.baseUrl,
      llm_api_key: FIRST_KEY,
    });
    stranger = await api().user();
    const task = await readyStart(api(), owner);
    conversationId = task.app_conversation_id as string;
    sandboxId = task.sandbox_id as string;
    const saved = await api().call('/api/v1/settings/profiles/other', {
      method: 'POST',
      as: owner,
      body: { llm: { model: 'openai/profile-model', base_url: second.baseUrl, api_key: PROFILE_KEY } },
    });
    expect(saved.status, saved.text).toBe(201);
  });

  it('switches the running conversation: its next LLM call goes to the profile’s endpoint, model and key', async () => {
    expect(await view(conversationId)).toMatchObject({ llm_model: 'openai/settings-model' });
    const switched = await switchTo(conversationId, 'other');
    expect(switched.status, switched.text).toBe(200);
    expect(switched.body).toEqual({ success: true });
    // The route wrote the row's model; an info the agent server posted before the switch may land after it, and
    // its next info (the model changed) puts it back: the row ends on the profile's model.
    await until(
      () => view(conversationId),
      (conversation) => conversation.llm_model === 'openai/profile-model',
      'the row to name the profile’s model',
    );
    const agent = await agentOfConversation(api(), owner, conversationId);
    const info = await agent.get('/api/conversations/{conversation_id}', {
      params: { conversation_id: conversationId },
    });
    expect(info.agent.llm).toMatchObject({ model: 'openai/profile-model', base_url: second.baseUrl });
    expect(JSON.stringify(info)).not.toContain(PROFILE_KEY);

    const sent = await api().call(`/api/v1/app-conversations/${conversationId}/send-message`, {
      method: 'POST',
      as: owner,
      body: { content: [{ type: 'text', text: 'Which LLM answers?' }], run: true },
    });
    expect(sent.status, sent.text).toBe(200);
    const events = await eventsUntil(agent, conversationId, (event) => {
      const text = JSON.stringify(event);
      return (
        text.includes('From the profile.') ||
        text.includes('From the settings.') ||
        event.kind === 'ConversationErrorEvent'
      );
    });
    expect(JSON.stringify(events.at(-1))).toContain('From the profile.');
    // The profile's server required its key (a 401 otherwise) and got the profile's model; the settings' none.
    const answered = second.requests().filter((request) => request.turn_index !== null);
    expect(answered).toHaveLength(1);
    expect((answered[0]?.body as { model?: string }).model).toMatch(/profile-model$/);
    expect(first.requests()).toEqual([]);
    expect(api().logs.join('\n')).not.toContain(PROFILE_KEY);
  });

  it('answers 404 for another user’s conversation or an unknown profile, 422 for a bad profile name', async () => {
    const theirs = await switchTo(conversationId, 'other', stranger);
    expect(theirs.status).toBe(404);
    expect(theirs.body).toEqual({ detail: 'Conversation not found' });
    expect((await switchTo(randomUUID(), 'other')).body).toEqual({ detail: 'Conversation not found' });
    // The stranger's profile of the same name is not the owner's, nor the owner's theirs.
    await api().call('/api/v1/settings/profiles/strangers', {
      method: 'POST',
      as: stranger,
      body: { llm: { model: 'x' } },
    });
    const unknown = await switchTo(conversationId, 'strangers');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ detail: 'Profile not found' });
    for (const bad of ['', 'a/b', 42, 'x'.repeat(65)]) {
      const answer = await switchTo(conversationId, bad);
      expect(answer.status, JSON.stringify(bad)).toBe(422);
      expect(answer.body.detail[0].loc).toEqual(['body', 'profile_name']);
    }
    const badId = await api().call('/api/v1/app-conversations/not-a-uuid/switch_profile', {
      method: 'POST',
      as: owner,
      body: { profile_name: 'other' },
    });
    expect(badId.status).toBe(422);
    expect(badId.body.detail[0].loc).toEqual(['path', 'conversation_id']);
  });

  it('answers 502 when the agent server refuses, 410 once the sandbox is gone, 409 while it does not run', async () => {
    const refused = await switchTo(await rowOnly(sandboxId), 'other');
    expect(refused.status, refused.text).toBe(502);
    expect(refused.body.detail).toMatch(/^The agent server did not switch the LLM: 404 /);
    const gone = await switchTo(await rowOnly('gone-sandbox'), 'other');
    expect(gone.status, gone.text).toBe(410);
    const paused = await api().call(`/api/v1/sandboxes/${sandboxId}/pause`, { method: 'POST', as: owner });
    expect(paused.status, paused.text).toBe(200);
    const stopped = await switchTo(conversationId, 'other');
    expect(stopped.status, stopped.text).toBe(409);
    expect(stopped.body.detail).toMatch(/resume it first/);
  });

  it('starts a new conversation on the activated profile’s LLM (the settings took it)', async () => {
    const answered = () => second.requests().filter((request) => request.turn_index !== null).length;
    const before = answered();
    expect((await api().call('/api/v1/settings/profiles/other/activate', { method: 'POST', as: owner })).status).toBe(
      200,
    );
    const task = await readyStart(api(), owner, {
      initial_message: { content: [{ type: 'text', text: 'Who answers a new conversation?' }] },
    });
    const id = task.app_conversation_id as string;
    expect(await view(id)).toMatchObject({ llm_model: 'openai/profile-model' });
    const agent = await agentOfConversation(api(), owner, id);
    const events = await eventsUntil(agent, id, (event) => {
      const text = JSON.stringify(event);
      return text.includes('From the profile.') || event.kind === 'ConversationErrorEvent';
    });
    expect(JSON.stringify(events.at(-1))).toContain('From the profile.');
    expect(answered()).toBe(before + 1);
    expect(first.requests()).toEqual([]);
  });
});
