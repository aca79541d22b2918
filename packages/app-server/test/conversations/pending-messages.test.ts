import { randomUUID } from 'node:crypto';
import { AppServerClient, waitForStartTask } from '@bosun/client';
import { type LlmReplay, startLlmReplay } from '@bosun/llm-replay';
import type { StoredEvent } from '@bosun/protocol';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PendingMessages } from '../../src/conversations/pending-messages.ts';
import { type Api, type TestUser, describeApi } from '../api/harness.ts';
import { until } from '../support/until.ts';
import { agentOfConversation, eventsUntil } from './support.ts';

let llm: LlmReplay;
beforeAll(async () => {
  llm = await startLlmReplay({ script: { turns: [{ content: 'Noted.', times: 100 }] } });
});
afterAll(async () => {
  await llm?.close();
});

const text = (words: string) => ({ content: [{ type: 'text' as const, text: words }] });

/** The texts of the user's messages in the conversation, in the agent server's order. */
async function userMessages(api: Api, owner: TestUser, conversationId: string): Promise<string[]> {
  const agent = await agentOfConversation(api, owner, conversationId);
  const texts: string[] = [];
  for await (const event of agent.iterateEvents(conversationId)) {
    if (event.kind === 'MessageEvent' && event.source === 'user') texts.push(textOf(event));
  }
  return texts;
}

function textOf(event: StoredEvent): string {
  const { llm_message } = event as unknown as { llm_message: { content: { text?: string }[] } };
  return llm_message.content.map((item) => item.text ?? '').join('');
}

describeApi('pending messages', (api) => {
  let owner: TestUser;
  let stranger: TestUser;
  let conversationId: string;
  let taskId: string;
  const post = (id: string, body: unknown, as: TestUser = owner) =>
    api().call(`/api/v1/conversations/${id}/pending-messages`, { method: 'POST', as, body });

  beforeAll(async () => {
    owner = await api().user({ llm_model: 'test-model', llm_base_url: llm.baseUrl, llm_api_key: 'llm-key' });
    stranger = await api().user();
  });

  it('delivers messages queued during the start after the initial message, in order, once', async () => {
    const started = await api().call('/api/v1/app-conversations', {
      method: 'POST',
      as: owner,
      body: { initial_message: text('FIRST') },
    });
    expect(started.status, started.text).toBe(200);
    taskId = started.body.id;
    const second = await post(`task-${taskId}`, text('SECOND'));
    expect(second.status, second.text).toBe(201);
    expect(second.body).toEqual({ id: expect.any(String), queued: true, position: 1 });
    const third = await post(`task-${taskId.replaceAll('-', '')}`, text('THIRD'));
    expect(third.status, third.text).toBe(201);
    expect(third.body).toMatchObject({ queued: true, position: 2 });

    const client = new AppServerClient({ baseUrl: api().url, apiKey: owner.key });
    const task = await waitForStartTask(client, taskId, { intervalMs: 20 });
    expect(task.status, task.detail ?? '').toBe('READY');
    conversationId = task.app_conversation_id as string;
    const agent = await agentOfConversation(api(), owner, conversationId);
    await eventsUntil(agent, conversationId, (event) => event.kind === 'MessageEvent' && textOf(event) === 'THIRD');
    await until(
      () => api().repositories.pendingMessages.waiting({ taskId, conversationId: null }),
      (left) => left === 0,
      'the queue to empty',
    );
    expect(await userMessages(api(), owner, conversationId)).toEqual(['FIRST', 'SECOND', 'THIRD']);
  });

  it('delivers at once to a conversation that runs (by its id or its READY task), like send-message', async () => {
    const now = await post(conversationId, text('FOURTH'));
    expect(now.status, now.text).toBe(201);
    expect(now.body).toEqual({ id: expect.any(String), queued: false, position: 0 });
    const viaTask = await post(`task-${taskId}`, text('FIFTH'));
    expect(viaTask.status, viaTask.text).toBe(201);
    expect(viaTask.body).toMatchObject({ queued: false, position: 0 });
    expect(await userMessages(api(), owner, conversationId)).toEqual(['FIRST', 'SECOND', 'THIRD', 'FOURTH', 'FIFTH']);
  });

  it('delivers what a previous run of the app left waiting when the app starts again', async () => {
    // As if the app stopped between the task's READY and the delivery: the message waits for the task.
    await api().repositories.pendingMessages.add({
      id: randomUUID(),
      userId: owner.id,
      target: { taskId, conversationId: null },
      role: 'user',
      content: JSON.stringify(text('SIXTH').content),
    });
    const warnings: string[] = [];
    const log = { warn: (_: object, message: string) => warnings.push(message), error: () => {} };
    await new PendingMessages({ repositories: api().repositories, sandboxes: api().sandboxes, log }).deliverWaiting();
    expect(warnings).toEqual([]);
    expect(await api().repositories.pendingMessages.targetsWaiting()).toEqual({ conversationIds: [], taskIds: [] });
    expect((await userMessages(api(), owner, conversationId)).slice(-2)).toEqual(['FIFTH', 'SIXTH']);
  });

  it('does not post twice a message the agent server took before the app could record it', async () => {
    const { pendingMessages } = api().repositories;
    const waitFor = async (words: string) => {
      const { record } = await pendingMessages.add({
        id: randomUUID(),
        userId: owner.id,
        target: { taskId: null, conversationId },
        role: 'user',
        content: JSON.stringify([{ type: 'text', text: words, cache_prompt: false }]),
      });
      // Claimed by a run of the app that stopped, longer ago than a post may take.
      expect(await pendingMessages.claim(record.id, null, new Date(Date.now() - 60_000).toISOString())).toBe(true);
    };
    // Posted, then the app stopped before marking it delivered; the other one's post never arrived.
    await waitFor('TAKEN-BEFORE-CRASH');
    const agent = await agentOfConversation(api(), owner, conversationId);
    await agent.post('/api/conversations/{conversation_id}/events', {
      params: { conversation_id: conversationId },
      body: { ...text('TAKEN-BEFORE-CRASH'), run: true },
    });
    await waitFor('LOST-IN-CRASH');
    const log = { warn: () => {}, error: () => {} };
    await new PendingMessages({ repositories: api().repositories, sandboxes: api().sandboxes, log }).deliverWaiting();
    expect(await pendingMessages.waiting({ taskId: null, conversationId })).toBe(0);
    expect((await userMessages(api(), owner, conversationId)).slice(-3)).toEqual([
      'SIXTH',
      'TAKEN-BEFORE-CRASH',
      'LOST-IN-CRASH',
    ]);
  });

  it('keeps a message for a paused conversation and delivers it when the conversation is resumed', async () => {
    const conversation = `/api/v1/app-conversations/${conversationId}`;
    const paused = await api().call(`${conversation}/pause`, { method: 'POST', as: owner });
    expect(paused.status, paused.text).toBe(200);
    const queued = await post(conversationId, text('WHILE-PAUSED'));
    expect(queued.status, queued.text).toBe(201);
    expect(queued.body).toMatchObject({ queued: true, position: 1 });
    const resumed = await api().call(`${conversation}/resume`, { method: 'POST', as: owner });
    expect(resumed.status, resumed.text).toBe(200);
    expect(await api().repositories.pendingMessages.waiting({ taskId: null, conversationId })).toBe(0);
    expect((await userMessages(api(), owner, conversationId)).slice(-2)).toEqual(['LOST-IN-CRASH', 'WHILE-PAUSED']);
  });

  it('delivers a message queued while the sandbox was paused when the sandbox is resumed by its own route', async () => {
    const [conversation] = (await api().call(`/api/v1/app-conversations?ids=${conversationId}`, { as: owner })).body;
    const sandbox = `/api/v1/sandboxes/${conversation.sandbox_id}`;
    expect((await api().call(`${sandbox}/pause`, { method: 'POST', as: owner })).status).toBe(200);
    const queued = await post(conversationId, text('WHILE-SANDBOX-PAUSED'));
    expect(queued.body).toMatchObject({ queued: true, position: 1 });
    expect((await api().call(`${sandbox}/resume`, { method: 'POST', as: owner })).status).toBe(200);
    await until(
      () => api().repositories.pendingMessages.waiting({ taskId: null, conversationId }),
      (waiting) => waiting === 0,
      'the message delivered after the resume',
    );
    expect((await userMessages(api(), owner, conversationId)).slice(-2)).toEqual([
      'WHILE-PAUSED',
      'WHILE-SANDBOX-PAUSED',
    ]);
  });

  it('lets one caller only claim a message (two replicas never post it both)', async () => {
    const { pendingMessages } = api().repositories;
    const { record } = await pendingMessages.add({
      id: randomUUID(),
      userId: owner.id,
      target: { taskId: randomUUID(), conversationId: null },
      role: 'user',
      content: '[]',
    });
    const claims = await Promise.all([pendingMessages.claim(record.id, null), pendingMessages.claim(record.id, null)]);
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await pendingMessages.claim(record.id, null)).toBe(false);
    await pendingMessages.markDelivered(record.id);
  });

  it('refuses an eleventh message waiting for the same start (429)', async () => {
    const task = await api().repositories.startTasks.create({
      id: randomUUID(),
      userId: owner.id,
      status: 'WAITING_FOR_SANDBOX',
      request: '{}',
    });
    for (let position = 1; position <= 10; position++) {
      const queued = await post(`task-${task.id}`, text(`message ${position}`));
      expect(queued.status, queued.text).toBe(201);
      expect(queued.body).toMatchObject({ queued: true, position });
    }
    const refused = await post(`task-${task.id}`, text('one too many'));
    expect(refused.status).toBe(429);
    expect(refused.body.detail).toMatch(/10 messages wait/);
    expect(await api().repositories.pendingMessages.waiting({ taskId: task.id, conversationId: null })).toBe(10);
  });

  it('answers 409 for a start task that ended in ERROR, saying so', async () => {
    const client = new AppServerClient({ baseUrl: api().url, apiKey: owner.key });
    const started = await client.post('/api/v1/app-conversations', { body: { sandbox_id: 'not-there' } });
    expect((await waitForStartTask(client, started.id, { intervalMs: 20 })).status).toBe('ERROR');
    const refused = await post(`task-${started.id}`, text('too late'));
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toMatch(/ended in ERROR.*Sandbox not found/);
    const queued = client.post('/api/v1/conversations/{conversation_id}/pending-messages', {
      params: { conversation_id: `task-${started.id}` },
      body: { role: 'user', content: [{ type: 'text', text: 'too late', cache_prompt: false }] },
    });
    await expect(queued).rejects.toMatchObject({ status: 409 });
  });

  it('answers 404 for another user’s task or conversation and for unknown ones', async () => {
    for (const id of [`task-${taskId}`, conversationId, `task-${randomUUID()}`, randomUUID()]) {
      const answer = await post(id, text('not mine'), stranger);
      expect(answer.status, `${id}: ${answer.text}`).toBe(404);
      expect(answer.body).toEqual({ detail: expect.any(String) });
    }
    expect(await api().repositories.pendingMessages.waiting({ taskId: null, conversationId })).toBe(0);
  });

  it('answers 422 with where the input is wrong', async () => {
    const cases: [string, unknown, (string | number)[]][] = [
      [`task-${taskId}`, { content: [] }, ['body', 'content']],
      [`task-${taskId}`, { content: [{ type: 'text', text: 'x' }], role: 'assistant' }, ['body', 'role']],
      [`task-${taskId}`, { content: [{ type: 'text', text: 'x' }], extra: 1 }, ['body']],
      ['task-not-a-uuid', text('x'), ['path', 'conversation_id']],
      ['conversation-1', text('x'), ['path', 'conversation_id']],
    ];
    for (const [id, body, loc] of cases) {
      const answer = await post(id, body);
      expect(answer.status, answer.text).toBe(422);
      expect(answer.body.detail[0].loc.slice(0, loc.length)).toEqual(loc);
    }
  });

  it('forgets what waits for a conversation that is deleted', async () => {
    const { pendingMessages } = api().repositories;
    await pendingMessages.add({
      id: randomUUID(),
      userId: owner.id,
      target: { taskId: null, conversationId },
      role: 'user',
      content: JSON.stringify(text('NEVER').content),
    });
    const deleted = await api().call(`/api/v1/app-conversations/${conversationId}`, { method: 'DELETE', as: owner });
    expect(deleted.status, deleted.text).toBe(200);
    expect(await pendingMessages.undelivered(conversationId)).toEqual([]);
  });
});
