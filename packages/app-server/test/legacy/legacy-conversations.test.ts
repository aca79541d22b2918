import { randomUUID } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { LOCAL_SPEC } from '../../src/sandboxes/index.ts';
import { type Api, type TestUser, describeApi } from '../api/harness.ts';
import { newConversation, startOnAgent } from '../events/support.ts';

/** OpenHands' web client opens a V1 conversation through these: its socket URL comes from `url`. */
describeApi('OpenHands’ legacy conversation routes', (api) => {
  let alice: TestUser;
  let bob: TestUser;
  let running: string;
  let stopped: string;
  beforeAll(async () => {
    [alice, bob] = await api().users(2);
    const sandbox = await api().sandboxes.start(LOCAL_SPEC, alice.id);
    running = await startOnAgent(api() as Api, sandbox, await newConversation(api() as Api, alice.id, sandbox.id));
    stopped = await newConversation(api() as Api, alice.id, null);
  }, 120_000);

  it('GET /api/conversations/{id}: a V1 conversation as ConversationInfo, with its agent server’s URL and key', async () => {
    const [v1] = (await api().call(`/api/v1/app-conversations?ids=${running}`, { as: alice })).body;
    const answer = await api().call(`/api/conversations/${running}`, { as: alice });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toMatchObject({
      conversation_id: running,
      conversation_version: 'V1',
      status: 'RUNNING',
      runtime_status: 'STATUS$READY',
      url: v1.conversation_url,
      session_api_key: v1.session_api_key,
      sandbox_id: v1.sandbox_id,
      created_at: v1.created_at,
      last_updated_at: expect.stringMatching(/^\d{4}-/),
      sub_conversation_ids: [],
      pr_number: [],
      num_connections: 0,
    });
    expect(answer.body.url).toMatch(new RegExp(`/api/conversations/${running}$`));
    expect(answer.body.session_api_key).toEqual(expect.any(String));
    expect(typeof answer.body.title).toBe('string');
    const idle = await api().call(`/api/conversations/${stopped.replaceAll('-', '')}`, { as: alice });
    expect(idle.body).toMatchObject({ conversation_id: stopped, status: 'ARCHIVED', url: null, runtime_status: null });
  });

  it('GET /api/conversations/{id}/config: the runtime and session ids', async () => {
    const answer = await api().call(`/api/conversations/${running}/config`, { as: alice });
    const [v1] = (await api().call(`/api/v1/app-conversations?ids=${running}`, { as: alice })).body;
    expect(answer.body).toEqual({ runtime_id: v1.sandbox_id, session_id: running });
  });

  it('GET /api/conversations: the caller’s, newest first, paged as OpenHands’ result set', async () => {
    const first = await api().call('/api/conversations?limit=1&include_sub_conversations=false', { as: alice });
    expect(first.status, first.text).toBe(200);
    expect(first.body.results.map((c: { conversation_id: string }) => c.conversation_id)).toEqual([stopped]);
    expect(first.body.next_page_id).toEqual(expect.any(String));
    const next = await api().call(`/api/conversations?limit=1&page_id=${first.body.next_page_id}`, { as: alice });
    expect(next.body.results[0]).toMatchObject({ conversation_id: running, conversation_version: 'V1' });
    expect((await api().call('/api/conversations?limit=20', { as: bob })).body).toEqual({
      results: [],
      next_page_id: null,
    });
    expect((await api().call('/api/conversations?limit=0', { as: alice })).status).toBe(422);
  });

  it('answer 401 without credentials, and 404 for another user’s conversation, a start task id or an unknown one', async () => {
    for (const path of [
      `/api/conversations/${running}`,
      '/api/conversations',
      `/api/conversations/${running}/config`,
    ]) {
      const answer = await api().call(path);
      expect(answer.status, path).toBe(401);
      expect(answer.headers.get('www-authenticate')).toBe('Bearer');
    }
    for (const path of [
      `/api/conversations/${running}`,
      `/api/conversations/${running}/config`,
      `/api/conversations/task-${randomUUID()}`,
      `/api/conversations/${randomUUID()}`,
    ]) {
      const answer = await api().call(path, { as: path.includes('task-') ? alice : bob });
      expect(answer.status, path).toBe(404);
      expect(answer.body).toEqual({ detail: 'Conversation not found' });
    }
    const bobRename = await api().call(`/api/conversations/${running}`, {
      method: 'PATCH',
      as: bob,
      body: { title: 'mine now' },
    });
    expect(bobRename.status).toBe(404);
    expect((await api().call(`/api/conversations/${stopped}`, { method: 'DELETE', as: bob })).status).toBe(404);
    expect((await api().call(`/api/conversations/${stopped}`, { as: alice })).status).toBe(200);
  });

  it('PATCH renames (answering true), DELETE deletes (answering true)', async () => {
    const id = await newConversation(api() as Api, alice.id, null);
    const path = `/api/conversations/${id}`;
    const renamed = await api().call(path, { method: 'PATCH', as: alice, body: { title: '  Fix the build  ' } });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body).toBe(true);
    expect((await api().call(path, { as: alice })).body.title).toBe('Fix the build');
    for (const body of [{ title: '' }, { title: 'ok', public: true }, {}]) {
      expect((await api().call(path, { method: 'PATCH', as: alice, body })).status, JSON.stringify(body)).toBe(422);
    }
    const deleted = await api().call(path, { method: 'DELETE', as: alice });
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.body).toBe(true);
    expect((await api().call(path, { as: alice })).status).toBe(404);
  });
});
