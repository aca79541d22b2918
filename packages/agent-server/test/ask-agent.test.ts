import { randomUUID } from 'node:crypto';
import { type LlmReplay, startLlmReplay } from '@bosun/llm-replay';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './support/http.ts';
import { startRequest } from './support/server.ts';
import { testServerPerFile } from './support/shared-server.ts';

type Json = Record<string, unknown>;
const KEY = 'ask-key';
const headers = { 'X-Session-API-Key': KEY };

let replay: LlmReplay;
beforeAll(async () => {
  replay = await startLlmReplay({
    script: {
      turns: [
        { when: { last_user_message_contains: 'colour' }, content: 'You said blue.', times: 10 },
        { when: { last_user_message_contains: 'fail' }, error: { status: 400, times: 10 } },
        { when: { last_user_message_contains: 'unavailable' }, error: { status: 503, times: 10 } },
      ],
    },
    apiKey: 'sk-ask-secret',
  });
});
afterAll(() => replay.close());
const server = testServerPerFile({ sessionApiKeys: [KEY] });

let conversationId: string;
beforeAll(async () => {
  const started = await call<Json>(server.url, '/api/conversations', {
    method: 'POST',
    json: startRequest({
      agent: { llm: { model: 'openai/replay', base_url: replay.baseUrl, api_key: 'sk-ask-secret' }, tools: [] },
    }),
    headers,
  });
  expect(started.status, started.text).toBe(201);
  conversationId = String(started.body.id);
  const sent = await call(server.url, `/api/conversations/${conversationId}/events`, {
    method: 'POST',
    json: { content: [{ type: 'text', text: 'My favourite colour is blue.' }] },
    headers,
  });
  expect(sent.status).toBe(200);
});

const ask = (id: string, json: unknown, extra: Record<string, string> = headers) =>
  call<Json>(server.url, `/api/conversations/${id}/ask_agent`, { method: 'POST', json, headers: extra });
const eventCount = async () =>
  (await call<number>(server.url, `/api/conversations/${conversationId}/events/count`, { headers })).body;

describe('POST /api/conversations/{id}/ask_agent', () => {
  it("answers from the conversation's LLM over its history, and adds no event", async () => {
    const before = await eventCount();
    replay.reset();
    const reply = await ask(conversationId, { question: 'What is my colour?' });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toEqual({ response: 'You said blue.' });
    const [request] = replay.requests();
    const sent = JSON.stringify(request?.body);
    expect(sent).toContain('My favourite colour is blue.');
    expect(sent).toContain('What is my colour?');
    expect((request?.body as { tools?: unknown[] }).tools ?? []).toEqual([]);
    expect(await eventCount()).toBe(before);
  });

  it('asks once: an LLM that answers 503 is a 502 at once, not the retries a run would make', async () => {
    replay.reset();
    const reply = await ask(conversationId, { question: 'are you unavailable?' });
    expect(reply.status, reply.text).toBe(502);
    expect(replay.requests()).toHaveLength(1);
  });

  it('answers 502 when the LLM call fails, with no secret in the answer', async () => {
    const reply = await ask(conversationId, { question: 'please fail' });
    expect(reply.status).toBe(502);
    expect(reply.body).toEqual({ detail: expect.stringContaining('LLM call failed') });
    expect(reply.text).not.toContain('sk-ask-secret');
  });

  it('answers 404 for an unknown conversation, 422 for bad input, 401 without the key', async () => {
    const unknown = await ask(randomUUID(), { question: 'x' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ detail: expect.stringContaining('Conversation not found') });
    for (const body of [{}, { question: '' }, { question: 'x', extra: 1 }, { question: 3 }]) {
      expect((await ask(conversationId, body)).status, JSON.stringify(body)).toBe(422);
    }
    expect((await ask('not-a-uuid', { question: 'x' })).status).toBe(422);
    const unauthorized = await ask(conversationId, { question: 'x' }, {});
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.body).toEqual({ detail: 'Unauthorized' });
  });
});
