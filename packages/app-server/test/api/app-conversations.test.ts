import { randomUUID } from 'node:crypto';
import { AppServerClient, waitForStartTask } from '@bosun/client';
import { beforeAll, expect, it } from 'vitest';
import { startOnAgent } from '../events/support.ts';
import { agentPid } from '../sandboxes/processes.ts';
import { until } from '../support/until.ts';
import { type Api, type TestUser, describeApi } from './harness.ts';

/** `count` conversations of `user` made through the repository, one second apart, the newest last. */
async function conversations(api: Api, user: TestUser, titles: string[], sandboxId: string | null = null) {
  const ids: string[] = [];
  for (const [index, title] of titles.entries()) {
    const at = new Date(Date.UTC(2026, 0, 1, 0, 0, index)).toISOString();
    const id = randomUUID();
    ids.push(id);
    await api.repositories.conversations.create({
      id,
      user_id: user.id,
      sandbox_id: sandboxId,
      title,
      created_at: at,
      updated_at: at,
    });
  }
  return ids;
}

describeApi('app conversations: reads, bad input and the conversation webhook', (api) => {
  let owner: TestUser;
  let other: TestUser;
  beforeAll(async () => {
    [owner, other] = await api().users(2);
  });

  it('searches by title, time ranges and sandbox, a page at a time, newest first; counts the same', async () => {
    const ids = await conversations(api(), owner, ['Fix the parser', 'Write docs', 'PARSER speed', '50%_off'], 'sb1');
    const search = async (query: string) => {
      const answer = await api().call(`/api/v1/app-conversations/search?${query}`, { as: owner });
      expect(answer.status, answer.text).toBe(200);
      return answer.body;
    };
    expect((await search('title__contains=parser')).items.map((c: { id: string }) => c.id)).toEqual([ids[2], ids[0]]);
    expect((await search('title__contains=%25_')).items.map((c: { id: string }) => c.id)).toEqual([ids[3]]);
    const range = 'created_at__gte=2026-01-01T00:00:01Z&created_at__lt=2026-01-01T02:00:03%2B02:00';
    expect((await search(range)).items.map((c: { id: string }) => c.id)).toEqual([ids[2], ids[1]]);
    const first = await search('limit=3&sandbox_id__eq=sb1');
    expect(first.items).toHaveLength(3);
    const second = await search(`limit=3&sandbox_id__eq=sb1&page_id=${first.next_page_id}`);
    expect([...first.items, ...second.items].map((c: { id: string }) => c.id)).toEqual([...ids].reverse());
    expect(second.next_page_id).toBeNull();
    expect(first.items[0]).toMatchObject({ sandbox_status: 'MISSING', execution_status: null, session_api_key: null });
    const count = await api().call('/api/v1/app-conversations/count?title__contains=PARSER', { as: owner });
    expect(count.body).toBe(2);
    expect(
      (await api().call('/api/v1/app-conversations/count?updated_at__gte=2026-01-01T00:00:03Z', { as: owner })).body,
    ).toBe(1);
  });

  it('answers bad input with 422 and unknown conversations with 404', async () => {
    const id = randomUUID();
    const bad = [
      ['GET', '/api/v1/app-conversations?ids=not-a-uuid'],
      ['GET', '/api/v1/app-conversations/search?limit=0'],
      ['GET', '/api/v1/app-conversations/search?page_id=bm90IGEgcGFnZQ'],
      ['GET', '/api/v1/app-conversations/search?created_at__gte=yesterday'],
      ['GET', '/api/v1/app-conversations/start-tasks/search?sort_order=SIDEWAYS'],
      ['PATCH', '/api/v1/app-conversations/12345', { title: 'x' }],
      ['PATCH', `/api/v1/app-conversations/${id}`, { title: '' }],
      ['POST', `/api/v1/app-conversations/${id}/send-message`, { content: [] }],
      ['POST', '/api/v1/app-conversations', { selected_repository: '../etc' }],
      ['POST', '/api/v1/app-conversations', { conversation_id: 'abc' }],
      ['POST', '/api/v1/app-conversations', { secrets: { 'not a name': 'x' } }],
      ['POST', '/api/v1/app-conversations', { secrets: { GOOD_NAME: 42 } }],
      ['POST', '/api/v1/app-conversations', { initial_message: { content: 'hi' } }],
    ] as const;
    for (const [method, path, body] of bad) {
      const answer = await api().call(path, { method, as: owner, ...(body ? { body } : {}) });
      expect(answer.status, `${method} ${path}: ${answer.text}`).toBe(422);
      expect(answer.body.detail[0]).toMatchObject({ loc: expect.any(Array), msg: expect.any(String) });
    }
    for (const [method, path, body] of [
      ['PATCH', `/api/v1/app-conversations/${id}`, { title: 'x' }],
      ['DELETE', `/api/v1/app-conversations/${id}`],
      ['POST', `/api/v1/app-conversations/${id}/send-message`, { content: [{ type: 'text', text: 'x' }] }],
      ['POST', `/api/v1/app-conversations/${id}/pause`],
      ['POST', `/api/v1/app-conversations/${id}/resume`],
    ] as const) {
      const answer = await api().call(path, { method, as: owner, ...(body ? { body } : {}) });
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(answer.body).toEqual({ detail: 'Conversation not found' });
    }
    // 410: the conversation's sandbox is gone.
    const [orphan] = await conversations(api(), owner, ['orphan'], 'gone-sandbox');
    const sent = await api().call(`/api/v1/app-conversations/${orphan}/send-message`, {
      method: 'POST',
      as: owner,
      body: { content: [{ type: 'text', text: 'x' }] },
    });
    expect(sent.status).toBe(410);
    // Fields of other OpenHands releases Bosun does not know are ignored; those it knows are taken (or refused,
    // see test/legacy/start-fields.test.ts); the start fails on what matters.
    const started = await api().call('/api/v1/app-conversations', {
      method: 'POST',
      as: owner,
      body: { agent_type: 'default', trigger: 'gui', observability_tags: ['x'], sandbox_id: 'nope' },
    });
    expect(started.status, started.text).toBe(200);
    expect(started.body).toMatchObject({ status: 'WORKING', request: { sandbox_id: 'nope', trigger: 'gui' } });
    expect(started.body.request).not.toHaveProperty('observability_tags');
  });

  it('reads start tasks by id, searches them in each order and counts them', async () => {
    const user = await api().user();
    const made = [];
    for (let index = 0; index < 3; index++) {
      made.push(
        await api().repositories.startTasks.create({
          id: randomUUID(),
          userId: user.id,
          status: 'ERROR',
          request: '{}',
        }),
      );
    }
    const [a, b] = made as unknown as [{ id: string }, { id: string }];
    const batch = await api().call(
      `/api/v1/app-conversations/start-tasks?ids=${a.id.replaceAll('-', '')}&ids=${randomUUID()}`,
      { as: user },
    );
    expect(batch.body).toEqual([expect.objectContaining({ id: a.id, status: 'ERROR', problems: [] }), null]);
    const order = async (sort: string) => {
      const ids: string[] = [];
      let page: string | null = null;
      do {
        const answer = await api().call(
          `/api/v1/app-conversations/start-tasks/search?sort_order=${sort}&limit=2${page ? `&page_id=${page}` : ''}`,
          { as: user },
        );
        expect(answer.status, answer.text).toBe(200);
        ids.push(...answer.body.items.map((task: { id: string }) => task.id));
        page = answer.body.next_page_id;
      } while (page);
      return ids;
    };
    const oldestFirst = await order('CREATED_AT');
    expect(new Set(oldestFirst)).toEqual(new Set(made.map((task) => task.id)));
    expect(await order('CREATED_AT_DESC')).toEqual([...oldestFirst].reverse());
    await api().repositories.startTasks.update(b.id, { status: 'READY' });
    expect((await order('UPDATED_AT_DESC'))[0]).toBe(b.id);
    expect((await api().call('/api/v1/app-conversations/start-tasks/count', { as: user })).body).toBe(3);
  });

  it('the typed client starts, follows and reads', async () => {
    const user = await api().user();
    const client = new AppServerClient({ baseUrl: api().url, apiKey: user.key });
    await client.post('/api/v1/settings', { body: { llm_model: 'client/model' } });
    const task = await client.post('/api/v1/app-conversations', {
      body: { sandbox_id: 'not-there', title: 'From the client' },
    });
    expect(task.status).toBe('WORKING');
    expect(await waitForStartTask(client, task.id, { intervalMs: 20 })).toMatchObject({
      status: 'ERROR',
      detail: 'Sandbox not found',
    });
    const streamed = await client.post('/api/v1/app-conversations/stream-start', { body: { sandbox_id: 'not-there' } });
    expect(streamed.map((step) => step.status)).toEqual(['WORKING', 'WAITING_FOR_SANDBOX', 'ERROR']);
    expect(await client.get('/api/v1/app-conversations/start-tasks/count')).toBe(2);
    expect(
      (
        await client.get('/api/v1/app-conversations/start-tasks/search', { query: { sort_order: 'CREATED_AT' } })
      ).items.map((t) => t.id)[0],
    ).toBe(task.id);
    expect(await client.get('/api/v1/app-conversations/count')).toBe(0);
    expect((await client.get('/api/v1/web-client/config')).kind).toBe('WebClientConfig');
  });

  it('the web client config answers without credentials', async () => {
    const answer = await api().call('/api/v1/web-client/config');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      app_mode: 'oss',
      kind: 'WebClientConfig',
      feature_flags: { enable_billing: false, deployment_mode: 'self_hosted' },
      providers_configured: ['github', 'gitlab', 'bitbucket'],
      provider_default_hosts: { github: 'github.com' },
    });
  });

  it('takes conversation reports from a sandbox with its session key, for its owner only; a killed sandbox shows ERROR', async () => {
    const started = await api().call('/api/v1/sandboxes', { method: 'POST', as: owner, body: {} });
    expect(started.body.status).toBe('RUNNING');
    const sandboxId: string = started.body.id;
    const key: string = started.body.session_api_key;
    const report = (body: unknown, headers: Record<string, string> = { 'X-Session-API-Key': key }) =>
      api().call('/api/v1/webhooks/conversations', { method: 'POST', headers, body });

    const direct = randomUUID();
    expect((await report({ id: direct }, {})).status).toBe(401);
    expect((await report({ id: direct }, { 'X-Session-API-Key': 'wrong' })).status).toBe(401);
    expect((await report({ id: direct }, { 'X-Session-API-Key': owner.key })).status).toBe(401);
    expect((await report({ id: 'nope' })).status).toBe(422);
    // Without a key the body is not even read.
    expect((await report({ id: 'nope' }, {})).status).toBe(401);

    // A report of a conversation its agent server does not have (deleted by the app meanwhile): no row.
    const ghost = randomUUID();
    expect((await report({ id: ghost, title: 'Ghost', execution_status: 'running' })).status).toBe(200);
    expect((await api().call(`/api/v1/app-conversations?ids=${ghost}`, { as: owner })).body).toEqual([null]);

    // Started directly on the agent server: the row is made for the sandbox's owner.
    const agentServerUrl: string = started.body.exposed_urls[0].url;
    await startOnAgent(api(), { id: sandboxId, agentServerUrl, sessionApiKey: key }, direct);
    const view = async (user: TestUser, id: string) =>
      (await api().call(`/api/v1/app-conversations?ids=${id}`, { as: user })).body[0];
    // The agent server's own report of the start first, so that the test's reports below are the newer ones (a
    // loaded machine delays the agent server's posts).
    await until(
      () => view(owner, direct),
      (row) => row !== null,
      'the agent server’s report of the start',
    );
    const metrics = {
      model_name: 'm',
      accumulated_cost: 0.5,
      max_budget_per_task: null,
      accumulated_token_usage: null,
    };
    const created = await report({
      id: direct.replaceAll('-', ''),
      title: 'Direct',
      execution_status: 'running',
      agent: { llm: { model: 'reported-model' } },
      // Newer than the agent server's report: the model is taken from the newest report.
      updated_at: new Date().toISOString(),
      metrics,
      extra_field_of_a_newer_agent_server: true,
    });
    expect(created.status, created.text).toBe(200);
    expect(created.body).toEqual({ success: true });
    expect(await view(owner, direct)).toMatchObject({
      id: direct,
      title: 'Direct',
      sandbox_id: sandboxId,
      llm_model: 'reported-model',
      execution_status: 'running',
      metrics: { accumulated_cost: 0.5 },
      sandbox_status: 'RUNNING',
    });
    expect((await report({ id: direct, execution_status: 'finished' })).status).toBe(200);
    expect(await view(owner, direct)).toMatchObject({ execution_status: 'finished', title: 'Direct' });
    // A title the agent made from a message holding U+0000 is kept (PostgreSQL's text cannot hold it: replaced).
    expect((await report({ id: direct, title: 'Dir\u0000ect' })).status).toBe(200);
    expect(await view(owner, direct)).toMatchObject({ title: 'Dir\uFFFDect' });

    // The agent server has no such conversation (the app's row alone): its refusal is a 502 saying why.
    const [rowOnly] = await conversations(api(), owner, ['Row only'], sandboxId);
    const refusedByAgent = await api().call(`/api/v1/app-conversations/${rowOnly}/send-message`, {
      method: 'POST',
      as: owner,
      body: { content: [{ type: 'text', text: 'x' }] },
    });
    expect(refusedByAgent.status, refusedByAgent.text).toBe(502);
    expect(refusedByAgent.body.detail).toMatch(/^The agent server did not take the message: 404 /);

    // Another user's conversation (or one in another sandbox) is not the sandbox's to write.
    const [theirs] = await conversations(api(), other, ['Theirs'], sandboxId);
    const [elsewhere] = await conversations(api(), owner, ['Elsewhere'], 'another-sandbox');
    for (const id of [theirs, elsewhere] as string[]) {
      const refused = await report({ id, title: 'Taken over', execution_status: 'error' });
      expect(refused.status).toBe(404);
    }
    expect(await view(other, theirs as string)).toMatchObject({ title: 'Theirs', execution_status: null });
    expect(await view(owner, elsewhere as string)).toMatchObject({ title: 'Elsewhere' });

    // kill -9: the conversation shows the sandbox ERROR with why, and the app keeps answering.
    const pid = await agentPid(api().runtime.runtime, sandboxId);
    expect(pid).toBeDefined();
    process.kill(pid as number, 'SIGKILL');
    const failed = await until(
      () => view(owner, direct),
      (conversation) => conversation.sandbox_status === 'ERROR',
      'the sandbox to be ERROR',
      60_000,
    );
    expect(failed.sandbox_status_detail).toMatch(/SIGKILL/);
    expect(failed).toMatchObject({ conversation_url: null, session_api_key: null, execution_status: null });
    expect((await report({ id: direct })).status).toBe(401);
    const refused = await api().call(`/api/v1/app-conversations/${direct}/send-message`, {
      method: 'POST',
      as: owner,
      body: { content: [{ type: 'text', text: 'x' }] },
    });
    expect(refused.status).toBe(409);
  });
});
