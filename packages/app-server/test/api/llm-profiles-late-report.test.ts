import type { ConversationInfo } from '@bosun/protocol';
import { beforeAll, expect, it } from 'vitest';
import { agentOfConversation, readyStart } from '../conversations/support.ts';
import { type TestUser, describeApi } from './harness.ts';

/**
 * What the agent server reports of a conversation reaches the app in any order: a report sent before a switch of
 * its LLM that lands after it must not bring the old model back (ordered by the agent server's `updated_at`).
 */
describeApi('a conversation’s model after a switch, whatever order its reports land in', (api) => {
  let owner: TestUser;
  let conversationId: string;
  let sessionKey: string;
  const view = async () => (await api().call(`/api/v1/app-conversations?ids=${conversationId}`, { as: owner })).body[0];
  /** Posts `report` as the conversation's agent server does (its sandbox's session key). */
  const report = async (report: object) => {
    const answer = await api().call('/api/v1/webhooks/conversations', {
      method: 'POST',
      headers: { 'X-Session-API-Key': sessionKey },
      body: report,
    });
    expect(answer.status, answer.text).toBe(200);
  };

  beforeAll(async () => {
    owner = await api().user({ llm_model: 'openai/settings-model' });
    conversationId = (await readyStart(api(), owner)).app_conversation_id as string;
    sessionKey = (await view()).session_api_key;
    const saved = await api().call('/api/v1/settings/profiles/other', {
      method: 'POST',
      as: owner,
      body: { llm: { model: 'openai/profile-model' } },
    });
    expect(saved.status, saved.text).toBe(201);
  });

  it('keeps the switched model when a report from before the switch lands after it; a newer report changes it', async () => {
    const agent = await agentOfConversation(api(), owner, conversationId);
    // What the agent server reports before the switch (its ConversationInfo), delivered late.
    const beforeSwitch: ConversationInfo = await agent.get('/api/conversations/{conversation_id}', {
      params: { conversation_id: conversationId },
    });
    expect(beforeSwitch.agent.llm.model).toBe('openai/settings-model');
    const switched = await api().call(`/api/v1/app-conversations/${conversationId}/switch_profile`, {
      method: 'POST',
      as: owner,
      body: { profile_name: 'other' },
    });
    expect(switched.status, switched.text).toBe(200);
    expect(await view()).toMatchObject({ llm_model: 'openai/profile-model' });

    await report(beforeSwitch);
    expect(await view()).toMatchObject({ llm_model: 'openai/profile-model' });
    // A report that says nothing of when it was made cannot order itself after the switch either.
    const { updated_at: _, ...undated } = beforeSwitch;
    await report(undated);
    expect(await view()).toMatchObject({ llm_model: 'openai/profile-model' });

    // Switched on the agent server itself afterwards: its report is newer, and names the model.
    await agent.post('/api/conversations/{conversation_id}/switch_llm', {
      params: { conversation_id: conversationId },
      body: { llm: { model: 'openai/direct-model' } },
    });
    const afterward = await agent.get('/api/conversations/{conversation_id}', {
      params: { conversation_id: conversationId },
    });
    await report(afterward);
    expect(await view()).toMatchObject({ llm_model: 'openai/direct-model' });
    // The old reports, landing again, change nothing; the newest once more, nothing either.
    await report(beforeSwitch);
    await report(afterward);
    expect(await view()).toMatchObject({ llm_model: 'openai/direct-model' });
  });
});
