import { afterEach, describe, expect, it } from 'vitest';
import { type Json, closeServers, endpoint, payloads, start } from './support.ts';

afterEach(closeServers);

const user = (text: string) => ({ model: 'gpt-test', messages: [{ role: 'user', content: text }] });
const api = endpoint('/chat/completions');

describe('Chat Completions, non-streaming', () => {
  it('answers text with the real response shape', async () => {
    const server = await start({ turns: [{ content: 'Hello!' }] });
    const before = Math.floor(Date.now() / 1000);
    const { status, headers, body } = await api.postJson(server, user('hi'));
    expect(status).toBe(200);
    expect(headers.get('content-type')).toBe('application/json');
    expect(headers.get('x-request-id')).toMatch(/^req_/);
    expect(body.id).toMatch(/^chatcmpl-[A-Za-z0-9]{29}$/);
    expect(body.object).toBe('chat.completion');
    expect(body.created).toBeGreaterThanOrEqual(before);
    expect(body.model).toBe('gpt-test');
    expect(body.choices).toEqual([
      {
        index: 0,
        message: { role: 'assistant', content: 'Hello!', refusal: null, annotations: [] },
        logprobs: null,
        finish_reason: 'stop',
      },
    ]);
    expect(body.usage.prompt_tokens).toBeGreaterThan(0);
    expect(body.usage.completion_tokens).toBeGreaterThan(0);
    expect(body.usage.total_tokens).toBe(body.usage.prompt_tokens + body.usage.completion_tokens);
  });

  it('makes parallel tool calls, each with its own id, sending string arguments as they are', async () => {
    const { body } = await api.ask(
      {
        turns: [
          {
            content: null,
            tool_calls: [
              { name: 'terminal', arguments: { command: 'ls' } },
              { name: 'terminal', arguments: '{"command": ' },
              { name: 'finish', id: 'call_fixed' },
            ],
          },
        ],
      },
      user('go'),
    );
    const choice = body.choices[0];
    expect(choice.finish_reason).toBe('tool_calls');
    expect(choice.message.content).toBeNull();
    const calls = choice.message.tool_calls;
    expect(calls.map((c: Json) => c.type)).toEqual(['function', 'function', 'function']);
    expect(calls.map((c: Json) => c.function.name)).toEqual(['terminal', 'terminal', 'finish']);
    expect(calls.map((c: Json) => c.function.arguments)).toEqual(['{"command":"ls"}', '{"command": ', '{}']);
    expect(calls[0].id).toMatch(/^call_[A-Za-z0-9]{24}$/);
    expect(calls[1].id).toMatch(/^call_/);
    expect(calls[0].id).not.toBe(calls[1].id);
    expect(calls[2].id).toBe('call_fixed');
  });

  it('puts reasoning in reasoning_content and counts it in the usage', async () => {
    const { body } = await api.ask(
      { turns: [{ content: 'Yes.', reasoning: 'The user asked a yes/no question.' }] },
      user('?'),
    );
    expect(body.choices[0].message.reasoning_content).toBe('The user asked a yes/no question.');
    expect(body.usage.completion_tokens_details.reasoning_tokens).toBeGreaterThan(0);
  });

  it('returns token ids as vLLM does and takes the usage from them', async () => {
    const { body } = await api.ask(
      { turns: [{ content: 'ok', token_ids: { prompt: [1, 2, 3], response: [7, 8] } }] },
      user('x'),
    );
    expect(body.prompt_token_ids).toEqual([1, 2, 3]);
    expect(body.choices[0].token_ids).toEqual([7, 8]);
    expect(body.usage).toMatchObject({ prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 });
  });

  it('applies usage overrides and the script model', async () => {
    const { body } = await api.ask(
      {
        model: 'scripted-model',
        turns: [{ content: 'ok', usage: { prompt_tokens: 1000, completion_tokens: 5, cached_tokens: 900 } }],
      },
      user('x'),
    );
    expect(body.model).toBe('scripted-model');
    expect(body.usage).toMatchObject({ prompt_tokens: 1000, completion_tokens: 5, total_tokens: 1005 });
    expect(body.usage.prompt_tokens_details.cached_tokens).toBe(900);
  });
});

describe('Chat Completions, streaming', () => {
  it('streams text as data-only chunks, the usage chunk last when asked, then [DONE]', async () => {
    const result = await api.askStreaming(
      { turns: [{ content: 'Hello there, how are you?' }] },
      { ...user('hi'), stream_options: { include_usage: true } },
    );
    expect(result.status).toBe(200);
    expect(result.contentType).toMatch(/^text\/event-stream/);
    expect(result.events.every((e) => e.event === undefined)).toBe(true);
    expect(result.events.at(-1)?.data).toBe('[DONE]');
    const chunks = payloads(result.events);
    expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
    expect(chunks[0].id).toMatch(/^chatcmpl-/);
    expect(chunks.every((c) => c.object === 'chat.completion.chunk' && c.model === 'gpt-test')).toBe(true);
    expect(chunks[0].choices[0].delta).toMatchObject({ role: 'assistant', content: '' });
    const contentChunks = chunks.filter((c) => c.choices[0]?.delta.content);
    expect(contentChunks.length).toBeGreaterThan(1);
    expect(contentChunks.map((c) => c.choices[0].delta.content).join('')).toBe('Hello there, how are you?');
    const usageChunk = chunks.at(-1);
    expect(usageChunk.choices).toEqual([]);
    expect(usageChunk.usage.total_tokens).toBe(usageChunk.usage.prompt_tokens + usageChunk.usage.completion_tokens);
    const finish = chunks.at(-2);
    expect(finish.choices[0]).toMatchObject({ delta: {}, finish_reason: 'stop' });
    expect(chunks.slice(0, -1).every((c) => c.usage === null)).toBe(true);
  });

  it('sends no usage fields without stream_options.include_usage', async () => {
    const { events } = await api.askStreaming({ turns: [{ content: 'Hi' }] }, user('hi'));
    const chunks = payloads(events);
    expect(chunks.every((c) => !('usage' in c))).toBe(true);
    expect(chunks.at(-1).choices[0].finish_reason).toBe('stop');
    expect(events.at(-1)?.data).toBe('[DONE]');
  });

  it('streams reasoning_content and parallel tool_calls deltas that accumulate by index', async () => {
    const { events } = await api.askStreaming(
      {
        turns: [
          {
            content: null,
            reasoning: 'I should list the files first.',
            tool_calls: [
              { name: 'terminal', arguments: { command: 'ls -la /tmp' } },
              { name: 'read_file', arguments: { path: '/etc/hostname', view_range: [1, 20] } },
            ],
          },
        ],
      },
      user('look around'),
    );
    const chunks = payloads(events);
    const reasoning = chunks.map((c) => c.choices[0]?.delta.reasoning_content ?? '').join('');
    expect(reasoning).toBe('I should list the files first.');
    const calls: { id?: string; name?: string; arguments: string }[] = [];
    for (const chunk of chunks) {
      for (const delta of chunk.choices[0]?.delta.tool_calls ?? []) {
        calls[delta.index] ??= { arguments: '' };
        const call = calls[delta.index]!;
        if (delta.id) {
          expect(delta.type).toBe('function');
          call.id = delta.id;
        }
        if (delta.function?.name) call.name = delta.function.name;
        call.arguments += delta.function?.arguments ?? '';
      }
    }
    expect(calls).toHaveLength(2);
    expect(calls[0]).toMatchObject({ name: 'terminal', arguments: '{"command":"ls -la /tmp"}' });
    expect(JSON.parse(calls[1]!.arguments)).toEqual({ path: '/etc/hostname', view_range: [1, 20] });
    expect(calls[0]!.id).toMatch(/^call_/);
    expect(calls[1]!.id).not.toBe(calls[0]!.id);
    const argumentChunks = chunks.filter((c) => c.choices[0]?.delta.tool_calls?.[0]?.function?.arguments);
    expect(argumentChunks.length).toBeGreaterThan(2);
    expect(chunks.at(-1).choices[0].finish_reason).toBe('tool_calls');
  });

  it('streams token ids: prompt ids on the first chunk, response ids on the finishing choice', async () => {
    const chunks = payloads(
      (
        await api.askStreaming(
          { turns: [{ content: 'a b', token_ids: { prompt: [5, 6], response: [9, 10, 11] } }] },
          user('x'),
        )
      ).events,
    );
    expect(chunks[0].prompt_token_ids).toEqual([5, 6]);
    expect(chunks.flatMap((c) => c.choices[0]?.token_ids ?? [])).toEqual([9, 10, 11]);
  });
});

describe('GET /v1/models', () => {
  it('lists the default model in the OpenAI list format', async () => {
    const server = await start({ turns: [] });
    const res = await fetch(`${server.baseUrl}/models`);
    const body = (await res.json()) as Json;
    expect(body.object).toBe('list');
    expect(body.data).toEqual([
      { id: 'llm-replay', object: 'model', created: expect.any(Number), owned_by: 'llm-replay' },
    ]);
  });

  it("lists the script's model and retrieves it by id", async () => {
    const server = await start({ model: 'gpt-replay-1', turns: [] });
    const list = (await (await fetch(`${server.baseUrl}/models`)).json()) as Json;
    expect(list.data.map((m: Json) => m.id)).toEqual(['gpt-replay-1']);
    const one = await fetch(`${server.baseUrl}/models/gpt-replay-1`);
    expect(((await one.json()) as Json).id).toBe('gpt-replay-1');
    expect((await fetch(`${server.baseUrl}/models/other`)).status).toBe(404);
    expect(server.requests().map((r) => r.api)).toEqual(['models', 'models', 'models']);
  });
});
