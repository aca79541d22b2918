import { randomUUID } from 'node:crypto';
import { type Socket, createServer } from 'node:net';
import { idleRunner } from '@bosun/agent-server';
import {
  AgentServerClient,
  BosunApiError,
  BosunNetworkError,
  BosunSocketError,
  BosunTimeoutError,
  type StartConversationInput,
} from '@bosun/client';
import { startLlmReplay } from '@bosun/llm-replay';
import type { StoredEvent } from '@bosun/protocol';
import { describe, expect, it, onTestFinished } from 'vitest';
import { startAgentServer, userMessage } from './support.ts';

const llmSpec = (baseUrl: string) => ({
  model: 'test-model',
  base_url: baseUrl,
  api_key: 'sk-client-test-secret',
  num_retries: 2,
  retry_min_wait: 0.01,
  retry_max_wait: 0.05,
  timeout: 20,
});

const isFinished = (event: StoredEvent) =>
  event.kind === 'ConversationStateUpdateEvent' && event.key === 'execution_status' && event.value === 'finished';

describe('AgentServerClient against a real agent server', () => {
  it('starts a conversation, sends a message and follows the events until the agent finishes', async () => {
    const llm = await startLlmReplay({
      script: { turns: [{ tool_calls: [{ name: 'finish', arguments: { message: 'All done.' } }] }] },
    });
    onTestFinished(() => llm.close());
    const { client, workspace } = await startAgentServer();
    const start: StartConversationInput = {
      agent: { llm: llmSpec(llm.baseUrl), tools: [{ name: 'terminal' }] },
      workspace: { working_dir: workspace },
      title: 'client test',
    };
    const info = await client.post('/api/conversations', { body: start });
    expect(info.execution_status).toBe('idle');
    expect(info.agent.llm.api_key).toBe('**********');

    const snapshots: string[] = [];
    const stream = client.followEvents(info.id, { fromStart: true, onSnapshot: (c) => snapshots.push(c.id) });
    await client.post('/api/conversations/{conversation_id}/events', {
      params: { conversation_id: info.id },
      body: userMessage('Say you are done.', true),
    });
    const followed: StoredEvent[] = [];
    for await (const event of stream) {
      followed.push(event);
      if (isFinished(event)) break;
    }
    expect(snapshots).toEqual([info.id]);
    const kinds = followed.map((e) => e.kind);
    expect(kinds).toContain('MessageEvent');
    expect(kinds).toContain('ActionEvent');
    expect(
      await client.get('/api/conversations/{conversation_id}/agent_final_response', {
        params: { conversation_id: info.id },
      }),
    ).toEqual({ response: 'All done.' });

    // What the socket delivered is what REST reads, in the same order.
    const stored = [];
    for await (const event of client.iterateEvents(info.id, { limit: 3 })) stored.push(event);
    expect(stored.map((e) => e.id).slice(0, followed.length)).toEqual(followed.map((e) => e.id));
    expect(
      await client.get('/api/conversations/{conversation_id}/events/count', { params: { conversation_id: info.id } }),
    ).toBe(stored.length);
    expect(
      await client.get('/api/conversations/{conversation_id}/events/count', {
        params: { conversation_id: info.id },
        query: { kind: 'MessageEvent', source: 'user' },
      }),
    ).toBe(1);
    const messages = await client.get('/api/conversations/{conversation_id}/events/search', {
      params: { conversation_id: info.id },
      query: { kind: 'MessageEvent', sort_order: 'TIMESTAMP_DESC' },
    });
    expect(messages.items.map((e) => e.source)).toEqual(['user']);

    const first = stored[0] as StoredEvent;
    expect(
      await client.get('/api/conversations/{conversation_id}/events/{event_id}', {
        params: { conversation_id: info.id, event_id: first.id },
      }),
    ).toEqual(first);
    const unknown = randomUUID();
    expect(await client.getEvents(info.id, [first.id, unknown])).toEqual([first, null]);

    const conversation = await client.get('/api/conversations/{conversation_id}', {
      params: { conversation_id: info.id },
    });
    expect(conversation.execution_status).toBe('finished');
    expect(conversation.title).toBe('client test');
    expect(await client.getConversations([info.id, unknown])).toEqual([conversation, null]);
    expect(await client.get('/api/conversations/count', { query: { status: 'finished' } })).toBe(1);
    const page = await client.get('/api/conversations/search', { query: { limit: 1 } });
    expect(page.items.map((c) => c.id)).toEqual([info.id]);
    expect(page.next_page_id).toBeNull();
  });

  it('reads and changes conversations: update, fork, secrets, policy, delete', async () => {
    const { client, workspace } = await startAgentServer({ runner: idleRunner });
    const info = await client.post('/api/conversations', {
      body: {
        agent: { llm: { model: 'm', api_key: 'sk-x' } },
        workspace: { working_dir: workspace },
      },
    });
    await client.post('/api/conversations/{conversation_id}/events', {
      params: { conversation_id: info.id },
      body: userMessage('one'),
    });
    expect(
      await client.patch('/api/conversations/{conversation_id}', {
        params: { conversation_id: info.id },
        body: { title: 'renamed', tags: { team: 'infra' } },
      }),
    ).toEqual({
      success: true,
    });
    await client.post('/api/conversations/{conversation_id}/secrets', {
      params: { conversation_id: info.id },
      body: { secrets: { GITHUB_TOKEN: 'ghp-secret', OTHER: { value: 'v', description: 'd' } } },
    });
    await client.post('/api/conversations/{conversation_id}/confirmation_policy', {
      params: { conversation_id: info.id },
      body: { policy: { kind: 'AlwaysConfirm' } },
    });
    const changed = await client.get('/api/conversations/{conversation_id}', { params: { conversation_id: info.id } });
    expect(changed).toMatchObject({ title: 'renamed', tags: { team: 'infra' } });
    expect(changed.confirmation_policy.kind).toBe('AlwaysConfirm');
    expect(Object.keys(changed.secret_registry).length).toBeGreaterThan(0);
    expect(JSON.stringify(changed)).not.toContain('ghp-secret');

    const fork = await client.post('/api/conversations/{conversation_id}/fork', {
      params: { conversation_id: info.id },
      body: { title: 'the fork' },
    });
    expect(fork.forked_from_conversation_id).toBe(info.id);
    expect(
      await client.get('/api/conversations/{conversation_id}/events/count', {
        params: { conversation_id: fork.id },
        query: { kind: 'MessageEvent' },
      }),
    ).toBe(1);
    expect(
      await client.get('/api/conversations/{conversation_id}/recordings', { params: { conversation_id: info.id } }),
    ).toEqual({ items: [] });
    expect(await client.get('/api/tools/')).toContain('terminal');

    // More ids than the server takes at once (100 conversations, 1000 events): split, answered in order.
    const many: string[] = Array.from({ length: 250 }, () => randomUUID());
    many[180] = info.id;
    const infos = await client.getConversations(many);
    expect(infos).toHaveLength(250);
    expect(infos.flatMap((c, i) => (c ? [[i, c.id]] : []))).toEqual([[180, info.id]]);
    const [message] = (
      await client.get('/api/conversations/{conversation_id}/events/search', {
        params: { conversation_id: info.id },
        query: { kind: 'MessageEvent' },
      })
    ).items;
    const eventIds: string[] = Array.from({ length: 2500 }, () => randomUUID());
    eventIds[2100] = message?.id as string;
    const events = await client.getEvents(info.id, eventIds);
    expect(events.flatMap((e, i) => (e ? [[i, e.id]] : []))).toEqual([[2100, message?.id]]);

    expect(
      await client.delete('/api/conversations/{conversation_id}', { params: { conversation_id: info.id } }),
    ).toEqual({ success: true });
    expect(await client.getConversations([info.id, fork.id])).toEqual([null, expect.objectContaining({ id: fork.id })]);
  });

  it('turns a 404 into a BosunApiError with the status, the detail, the method and the path', async () => {
    const { client } = await startAgentServer({ runner: idleRunner });
    const id = randomUUID();
    const error = await client
      .get('/api/conversations/{conversation_id}', { params: { conversation_id: id } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BosunApiError);
    expect(error).toMatchObject({ status: 404, method: 'GET', path: `/api/conversations/${id}` });
    expect((error as BosunApiError).detail).toBe(`Conversation not found: ${id}`);
    expect((error as BosunApiError).message).toContain('404');
    await expect(
      client.post('/api/conversations/{conversation_id}/run', { params: { conversation_id: id } }),
    ).rejects.toMatchObject({ status: 404, method: 'POST' });
  });

  it("keeps a 422's detail array as the server sent it", async () => {
    const { client, workspace } = await startAgentServer({ runner: idleRunner });
    const bad = { agent: { llm: { model: '' } }, workspace: { working_dir: workspace }, max_iterations: 0 };
    const error = (await client.post('/api/conversations', { body: bad }).catch((e: unknown) => e)) as BosunApiError;
    expect(error).toBeInstanceOf(BosunApiError);
    expect(error.status).toBe(422);
    expect(Array.isArray(error.detail)).toBe(true);
    const locs = error.validationErrors.map((e) => e.loc.join('.'));
    expect(locs).toEqual(expect.arrayContaining(['body.agent.llm.model', 'body.max_iterations']));
    for (const problem of error.validationErrors) expect(Object.keys(problem).sort()).toEqual(['loc', 'msg', 'type']);
    expect(error.message).toContain('body.max_iterations');

    const query = await client.get('/api/conversations/search', { query: { limit: 101 } }).catch((e: unknown) => e);
    expect((query as BosunApiError).validationErrors.map((e) => e.loc)).toEqual([['query', 'limit']]);
  });

  it('sends the session key on REST and on the socket; a wrong key is refused on both', async () => {
    const { client, url, workspace } = await startAgentServer(
      { runner: idleRunner, sessionApiKeys: ['sk-one'] },
      'sk-one',
    );
    const info = await client.post('/api/conversations', {
      body: {
        agent: { llm: { model: 'm' } },
        workspace: { working_dir: workspace },
      },
    });
    await client.post('/api/conversations/{conversation_id}/events', {
      params: { conversation_id: info.id },
      body: userMessage('hello'),
    });
    for await (const event of client.followEvents(info.id, { fromStart: true })) {
      expect(event.kind).toBe('MessageEvent');
      break;
    }
    const stranger = new AgentServerClient({ baseUrl: url, sessionApiKey: 'sk-wrong' });
    await expect(
      stranger.get('/api/conversations/{conversation_id}', { params: { conversation_id: info.id } }),
    ).rejects.toMatchObject({ status: 401 });
    expect(await stranger.alive()).toEqual({ status: 'ok' });
    const refused = await stranger
      .followEvents(info.id)
      .next()
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(BosunSocketError);
    expect((refused as BosunSocketError).code).toBe(4001);
    const missing = await client
      .followEvents(randomUUID())
      .next()
      .catch((e: unknown) => e);
    expect((missing as BosunSocketError).code).toBe(4004);
  });

  it('answers alive, health, ready and server_info', async () => {
    const { client } = await startAgentServer({ runner: idleRunner });
    expect(await client.alive()).toEqual({ status: 'ok' });
    expect(await client.health()).toEqual({ status: 'ok' });
    expect(await client.ready()).toEqual({ status: 'ready' });
    expect((await client.get('/server_info')).title).toBe('Bosun Agent Server');
  });
});

describe('failures that are not answers', () => {
  it('a server that is not there is a BosunNetworkError', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const client = new AgentServerClient({ baseUrl: `http://127.0.0.1:${port}` });
    const error = await client.alive().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BosunNetworkError);
    expect(error).toMatchObject({ method: 'GET', path: '/alive' });
  });

  it('a server that does not answer in time is a BosunTimeoutError', async () => {
    const held: Socket[] = [];
    const silent = createServer((socket) => held.push(socket)).listen(0, '127.0.0.1');
    await new Promise((resolve) => silent.once('listening', resolve));
    onTestFinished(() => {
      for (const socket of held) socket.destroy();
      silent.close();
    });
    const { port } = silent.address() as { port: number };
    const client = new AgentServerClient({ baseUrl: `http://127.0.0.1:${port}`, timeoutMs: 100 });
    const error = await client.health().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BosunTimeoutError);
    expect(error).toMatchObject({ timeoutMs: 100, path: '/health' });
    const caller = new AbortController();
    const cancelled = client.health({ signal: caller.signal, timeoutMs: 0 }).catch((e: unknown) => e);
    caller.abort(new Error('stopped by the caller'));
    expect(await cancelled).toMatchObject({ message: 'stopped by the caller' });
  });
});
