import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { NOT_APPLICABLE_ROUTES } from '../src/routes/not-applicable.ts';
import { type ConversationInfoBody, allEvents, call, createConversation, sendMessage } from './support/http.ts';
import { startTestServer } from './support/server.ts';
import { testServerPerFile } from './support/shared-server.ts';

const KEY = { 'X-Session-API-Key': 'k1' };

/** A server without session keys (the routes' behaviour), and one with (their auth). */
const server = testServerPerFile({ defaultLlm: { model: 'default-model', api_key: 'sk-x' } });
const keyed = testServerPerFile({ sessionApiKeys: ['k1'], defaultLlm: { model: 'default-model', api_key: 'sk-x' } });

const post = <T = unknown>(path: string, json?: unknown, headers: Record<string, string> = {}) =>
  call<T>(server.url, path, { method: 'POST', headers, ...(json === undefined ? {} : { json }) });

/** Every conversation route added for OpenHands' newer clients, with a valid body. */
const ROUTES: { method: string; path: string; json?: unknown }[] = [
  { method: 'POST', path: 'interrupt' },
  { method: 'POST', path: 'fork', json: {} },
  { method: 'POST', path: 'switch_llm', json: { llm: { model: 'other-model' } } },
  { method: 'POST', path: 'load_plugin', json: { plugin_ref: 'review@acme' } },
  { method: 'GET', path: 'agent_final_response' },
];

describe('the conversation routes of newer OpenHands clients', () => {
  it('answer 404 for an unknown conversation, 422 for a bad id, 401 without the key', async () => {
    for (const route of ROUTES) {
      const options = { method: route.method, ...(route.json ? { json: route.json } : {}) };
      const unknown = await call(server.url, `/api/conversations/${randomUUID()}/${route.path}`, {
        ...options,
        headers: KEY,
      });
      expect(unknown.status, route.path).toBe(404);
      expect(unknown.body, route.path).toEqual({ detail: expect.stringMatching(/^Conversation not found/) });
      const bad = await call(server.url, `/api/conversations/not-a-uuid/${route.path}`, { ...options, headers: KEY });
      expect(bad.status, route.path).toBe(422);
      expect(bad.body, route.path).toMatchObject({ detail: [{ loc: ['path', 'conversation_id'] }] });
      const anonymous = await call(keyed.url, `/api/conversations/${randomUUID()}/${route.path}`, options);
      expect(anonymous.status, route.path).toBe(401);
      expect(anonymous.body).toEqual({ detail: 'Unauthorized' });
    }
  });

  it('interrupt leaves an idle conversation paused, with a PauseEvent', async () => {
    const created = await createConversation(server.url);
    expect((await post(`/api/conversations/${created.id}/interrupt`)).status).toBe(200);
    const info = await call<ConversationInfoBody>(server.url, `/api/conversations/${created.id}`);
    expect(info.body.execution_status).toBe('paused');
    const events = await allEvents(server.url, created.id);
    expect(events.map((e) => e.kind)).toContain('PauseEvent');
  });

  it('switch_llm replaces the LLM, keeps a secret sent back redacted, and records the agent without secrets', async () => {
    const created = await createConversation(server.url);
    const llm: Record<string, unknown> = { ...created.agent.llm, model: 'other-model' };
    expect(llm.api_key).toBe('**********');
    const reply = await post(`/api/conversations/${created.id}/switch_llm`, { llm });
    expect(reply.status, reply.text).toBe(200);
    const conversation = server.server.service.get(created.id);
    expect(conversation?.record.request.agent.llm).toMatchObject({ model: 'other-model', api_key: 'sk-test-secret' });
    const events = await allEvents(server.url, created.id);
    const update = events.find((e) => e.kind === 'ConversationStateUpdateEvent' && e.key === 'agent');
    expect(update?.value).toMatchObject({ llm: { model: 'other-model', api_key: '**********' } });
    expect(JSON.stringify(events)).not.toContain('sk-test-secret');
    const info = await call<ConversationInfoBody>(server.url, `/api/conversations/${created.id}`);
    expect(info.body.metrics).toMatchObject({ model_name: 'other-model' });
  });

  it('switch_llm keeps an extra header sent back redacted, and never shows header values', async () => {
    const created = await createConversation(server.url);
    const first = { ...created.agent.llm, extra_headers: { 'X-Gateway-Key': 'header-secret' } };
    expect((await post(`/api/conversations/${created.id}/switch_llm`, { llm: first })).status).toBe(200);
    const shown = await call<ConversationInfoBody>(server.url, `/api/conversations/${created.id}`);
    const llm = shown.body.agent.llm as Record<string, unknown>;
    expect(llm.extra_headers).toEqual({ 'X-Gateway-Key': '**********' });
    const again = { ...llm, extra_headers: { 'X-Gateway-Key': '**********', 'X-Other': 'visible-to-owner' } };
    expect((await post(`/api/conversations/${created.id}/switch_llm`, { llm: again })).status).toBe(200);
    const conversation = server.server.service.get(created.id);
    expect(conversation?.record.request.agent.llm.extra_headers).toEqual({
      'X-Gateway-Key': 'header-secret',
      'X-Other': 'visible-to-owner',
    });
    expect(JSON.stringify(await allEvents(server.url, created.id))).not.toContain('header-secret');
  });

  it('switch_llm answers 422 for an LLM without a model or with an unknown field', async () => {
    const created = await createConversation(server.url);
    for (const llm of [{}, { model: 'm', nonsense: 1 }]) {
      const reply = await post<{ detail: { loc: unknown[] }[] }>(`/api/conversations/${created.id}/switch_llm`, {
        llm,
      });
      expect(reply.status).toBe(422);
      expect(reply.body.detail[0]?.loc.slice(0, 2)).toEqual(['body', 'llm']);
    }
    expect((await post(`/api/conversations/${created.id}/switch_llm`, {})).status).toBe(422);
  });

  it('fork copies the events and the configuration into a new idle conversation', async () => {
    const created = await createConversation(server.url, { title: 'Source', tags: { team: 'a' } });
    await sendMessage(server.url, created.id, 'first');
    await sendMessage(server.url, created.id, 'second');
    const source = await allEvents(server.url, created.id);
    const whole = await post<ConversationInfoBody>(`/api/conversations/${created.id}/fork`);
    expect(whole.status, whole.text).toBe(201);
    expect(whole.body).toMatchObject({
      title: 'Source',
      tags: { team: 'a' },
      execution_status: 'idle',
      event_count: source.length,
      forked_from_conversation_id: created.id,
      forked_from_event_id: source[source.length - 1]?.id,
      last_user_message_id: source[source.length - 1]?.id,
    });
    expect(whole.body.id).not.toBe(created.id);
    expect(await allEvents(server.url, whole.body.id)).toEqual(source);

    const id = randomUUID();
    const partial = await post<ConversationInfoBody>(`/api/conversations/${created.id}/fork`, {
      id,
      title: 'Branch',
      tags: { team: 'b' },
      from_event_id: source[0]?.id,
    });
    expect(partial.status, partial.text).toBe(201);
    expect(partial.body).toMatchObject({ id, title: 'Branch', tags: { team: 'b' }, event_count: 1 });
    expect(partial.body.last_user_message_id).toBe(source[0]?.id);
    // The source is unchanged; the fork takes messages of its own.
    await sendMessage(server.url, id, 'elsewhere');
    expect(await allEvents(server.url, created.id)).toEqual(source);
  });

  it('fork answers 409 for a taken id, 404 for an unknown event, 422 for bad fields', async () => {
    const created = await createConversation(server.url);
    const taken = await post(`/api/conversations/${created.id}/fork`, { id: created.id });
    expect(taken.status).toBe(409);
    expect(taken.body).toEqual({ detail: expect.stringContaining(created.id) });
    const unknown = await post(`/api/conversations/${created.id}/fork`, { from_event_id: 'nope' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ detail: 'Event not found: nope' });
    for (const json of [{ id: 'x' }, { title: '' }, { tags: { 'Bad Key': 'v' } }, { extra: true }]) {
      const reply = await post<{ detail: { loc: unknown[] }[] }>(`/api/conversations/${created.id}/fork`, json);
      expect(reply.status, JSON.stringify(json)).toBe(422);
      expect(reply.body.detail[0]?.loc[0]).toBe('body');
    }
  });

  it('agent_final_response is empty while the agent has said nothing', async () => {
    const created = await createConversation(server.url);
    await sendMessage(server.url, created.id, 'hello');
    const reply = await call(server.url, `/api/conversations/${created.id}/agent_final_response`);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ response: '' });
  });

  it('load_plugin answers 422 for a malformed reference or an unregistered marketplace', async () => {
    const created = await createConversation(server.url);
    for (const plugin_ref of ['review', 'a@b@c', '']) {
      const reply = await post(`/api/conversations/${created.id}/load_plugin`, { plugin_ref });
      expect(reply.status, plugin_ref).toBe(422);
      expect(reply.body).toMatchObject({ detail: [{ loc: ['body', 'plugin_ref'] }] });
    }
    const reply = await post(`/api/conversations/${created.id}/load_plugin`, { plugin_ref: 'review@acme' });
    expect(reply.status).toBe(422);
    expect(reply.body).toEqual({
      detail: [
        {
          loc: ['body', 'plugin_ref'],
          msg: "No marketplace is registered as 'acme' (registered: none)",
          type: 'value_error',
        },
      ],
    });
  });
});

describe('load_plugin before the agent is built', () => {
  it("answers 409 (the conversation's own plugins are not recorded yet)", async () => {
    const created = await createConversation(server.url, {
      agent: {
        llm: { model: 'm' },
        agent_context: { registered_marketplaces: [{ name: 'acme', source: 'github:acme/market' }] },
      },
    });
    const reply = await post(`/api/conversations/${created.id}/load_plugin`, { plugin_ref: 'review@acme' });
    expect(reply.status).toBe(409);
    expect(reply.body).toEqual({ detail: 'The conversation has no agent yet: run it first.' });
  });
});

describe('routes of OpenHands that Bosun has no counterpart for', () => {
  it('answer 501 with why, never a silent 404, and stay out of the OpenAPI document', async () => {
    expect(NOT_APPLICABLE_ROUTES.length).toBeGreaterThan(15);
    const documented = (await call<{ paths: Record<string, unknown> }>(server.url, '/openapi.json')).body.paths;
    for (const [method, route] of NOT_APPLICABLE_ROUTES) {
      const path = route.replace(':conversation_id', randomUUID()).replace(':event_id', 'e1').replace('*', 'a/b.txt');
      const reply = await call(server.url, path, { method });
      expect(reply.status, `${method} ${path}`).toBe(501);
      expect(reply.body, path).toEqual({ detail: expect.stringMatching(/^Bosun has no /) });
      expect(Object.keys(documented)).not.toContain(route);
    }
    // Behind the session key like every /api route.
    expect((await call(keyed.url, '/api/plugins')).status).toBe(401);
  });
});

describe('GET /v1/models', () => {
  it('lists the default model, to a session key given as a header or a bearer token, and to nobody else', async () => {
    const expected = {
      object: 'list',
      data: [{ id: 'default-model', object: 'model', created: expect.any(Number), owned_by: 'bosun' }],
    };
    expect((await call(server.url, '/v1/models')).body).toEqual(expected);
    const bearer = await call(server.url, '/v1/models', { headers: { authorization: 'Bearer k1' } });
    expect(bearer.status).toBe(200);
    expect(bearer.body).toEqual(expected);
    const wrong: Record<string, string>[] = [{}, { authorization: 'Bearer nope' }, { 'X-Session-API-Key': 'nope' }];
    for (const headers of wrong) {
      const reply = await call(keyed.url, '/v1/models', { headers });
      expect(reply.status).toBe(401);
      expect(reply.body).toEqual({ detail: 'Unauthorized' });
    }
  });

  it('is an empty list on a server without a default model', async () => {
    const other = await startTestServer();
    try {
      expect((await call(other.url, '/v1/models')).body).toEqual({ object: 'list', data: [] });
    } finally {
      await other.close();
    }
  });
});
