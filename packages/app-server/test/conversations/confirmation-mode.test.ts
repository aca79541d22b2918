import { type LlmReplay, startLlmReplay } from '@bosun/llm-replay';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeApi } from '../api/harness.ts';
import { agentOfConversation, streamStart } from './support.ts';

let llm: LlmReplay;
beforeAll(async () => {
  llm = await startLlmReplay({ script: { turns: [{ content: 'Hi.' }], repeat_last: true } });
});
afterAll(async () => {
  await llm?.close();
});

describeApi('confirmation mode of a user’s settings', (api) => {
  it('makes every conversation they start ask before each action; turned off, the next one does not', async () => {
    const user = await api().user({ llm_model: 'test-model', llm_base_url: llm.baseUrl, llm_api_key: 'llm-key' });
    const setMode = async (on: boolean) =>
      expect(
        (await api().call('/api/v1/settings', { method: 'POST', as: user, body: { confirmation_mode: on } })).status,
      ).toBe(200);

    await setMode(true);
    const asking = await streamStart(api(), user, {});
    expect(asking.last.status, asking.text).toBe('READY');
    const askingId: string = asking.last.app_conversation_id;
    const agent = await agentOfConversation(api(), user, askingId);
    expect(
      (await agent.get('/api/conversations/{conversation_id}', { params: { conversation_id: askingId } }))
        .confirmation_policy,
    ).toEqual({ kind: 'AlwaysConfirm' });

    await setMode(false);
    const trusting = await streamStart(api(), user, { sandbox_id: asking.last.sandbox_id });
    expect(trusting.last.status, trusting.text).toBe('READY');
    const trustingId: string = trusting.last.app_conversation_id;
    expect(
      (await agent.get('/api/conversations/{conversation_id}', { params: { conversation_id: trustingId } }))
        .confirmation_policy,
    ).toEqual({ kind: 'NeverConfirm' });
  }, 180_000);
});
