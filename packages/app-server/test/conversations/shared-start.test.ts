import { AppServerClient, followConversationEvents } from '@bosun/client';
import { type LlmReplay, startLlmReplay } from '@bosun/llm-replay';
import type { StoredEvent } from '@bosun/protocol';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeApi } from '../api/harness.ts';
import { readyStart } from './support.ts';

const REQUEST_SECRET = 'request-secret-value-shared-never';
const USER_SECRET = 'user-secret-value-shared-never';
const LLM_KEY = 'llm-key-shared-never';

let llm: LlmReplay;
beforeAll(async () => {
  llm = await startLlmReplay({
    script: {
      turns: [
        {
          when: { last_user_message_contains: 'SHOW-SECRETS' },
          tool_calls: [{ name: 'terminal', arguments: { command: 'echo "deploy=$DEPLOY_KEY user=$USER_KEY"' } }],
          times: 10,
        },
        {
          when: { last_tool_result_contains: 'deploy=' },
          tool_calls: [{ name: 'finish', arguments: { message: 'shown' } }],
          times: 10,
        },
      ],
    },
  });
});
afterAll(async () => {
  await llm?.close();
});

describeApi('a shared conversation started with secrets', (api) => {
  it('never answers the secrets it was started with, its owner’s, or the LLM key', async () => {
    const owner = await api().user({ llm_model: 'test-model', llm_base_url: llm.baseUrl, llm_api_key: LLM_KEY });
    const secret = await api().call('/api/v1/secrets', {
      method: 'POST',
      as: owner,
      body: { name: 'USER_KEY', value: USER_SECRET },
    });
    expect(secret.status, secret.text).toBe(201);
    const task = await readyStart(api(), owner, {
      secrets: { DEPLOY_KEY: REQUEST_SECRET },
      initial_message: { content: [{ type: 'text', text: 'SHOW-SECRETS please' }] },
    });
    const id = task.app_conversation_id as string;
    // The app's own store, followed until it holds the command's output (the agent server hides the values).
    const client = new AppServerClient({ baseUrl: api().url, apiKey: owner.key });
    const stored: StoredEvent[] = [];
    for await (const event of followConversationEvents(client, id, { fromStart: true })) {
      stored.push(event);
      if (event.kind === 'ObservationEvent' && JSON.stringify(event).includes('deploy=')) break;
    }
    const published = await api().call(`/api/v1/app-conversations/${id}`, {
      method: 'PATCH',
      as: owner,
      body: { public: true },
    });
    expect(published.status, published.text).toBe(200);

    const anyone = new AppServerClient({ baseUrl: api().url });
    const shared = await anyone.get('/api/shared-events/search', { query: { conversation_id: id } });
    const ids = shared.items.map((event) => event.id);
    expect(ids).toEqual(expect.arrayContaining(stored.map((event) => event.id)));
    const observation = stored.at(-1) as StoredEvent;
    const params = { conversation_id: id, event_id: observation.id };
    expect(JSON.stringify(await anyone.get('/api/shared-events/{conversation_id}/{event_id}', { params }))).toContain(
      'deploy=<secret-hidden> user=<secret-hidden>',
    );
    const answers = await Promise.all([
      api().call(`/api/shared-conversations?ids=${id}`),
      api().call(`/api/shared-events/search?conversation_id=${id}`),
      api().call(`/api/shared-events?conversation_id=${id}&${ids.map((eventId) => `id=${eventId}`).join('&')}`),
      ...ids.map((eventId) => api().call(`/api/shared-events/${id}/${eventId}`)),
    ]);
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      for (const hidden of [REQUEST_SECRET, USER_SECRET, LLM_KEY, owner.key]) expect(answer.text).not.toContain(hidden);
    }
    // Deleted with its sandbox: no longer shared.
    const deleted = await api().call(`/api/v1/app-conversations/${id}`, { method: 'DELETE', as: owner });
    expect(deleted.status, deleted.text).toBe(200);
    expect(await anyone.get('/api/shared-conversations', { query: { ids: [id] } })).toEqual([null]);
  });
});
