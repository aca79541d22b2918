import { afterEach, describe, expect, it } from 'vitest';
import { type Json, closeServers, endpoint, payloads, start } from './support.ts';

afterEach(closeServers);

const headers = { 'x-api-key': 'sk-ant-secret', 'anthropic-version': '2023-06-01' };
const api = endpoint('/messages', headers);
const request = (messages: unknown[]) => ({ model: 'claude-test', max_tokens: 1024, messages });
const user = (text: string) => request([{ role: 'user', content: text }]);

const fullTurn = {
  content: 'Let me check.',
  reasoning: 'The user wants the listing.',
  redacted_reasoning: 'EncryptedBlob==',
  tool_calls: [
    { name: 'terminal', arguments: { command: 'ls' } },
    { name: 'read', arguments: { path: 'a.txt' } },
  ],
};

describe('Anthropic Messages, non-streaming', () => {
  it('answers text with end_turn and usage', async () => {
    const { status, headers: responseHeaders, body } = await api.ask({ turns: [{ content: 'Hello!' }] }, user('hi'));
    expect(status).toBe(200);
    expect(responseHeaders.get('request-id')).toMatch(/^req_/);
    expect(body.id).toMatch(/^msg_01[1-9A-HJ-NP-Za-km-z]{22}$/);
    expect(body).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: 'claude-test',
      content: [{ type: 'text', text: 'Hello!' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
    });
    expect(body.usage.input_tokens).toBeGreaterThan(0);
    expect(body.usage.output_tokens).toBeGreaterThan(0);
  });

  it('answers thinking, redacted_thinking, text and parallel tool_use blocks with stop_reason tool_use', async () => {
    const { body } = await api.ask({ turns: [fullTurn] }, user('go'));
    expect(body.content.map((b: Json) => b.type)).toEqual([
      'thinking',
      'redacted_thinking',
      'text',
      'tool_use',
      'tool_use',
    ]);
    const [thinking, redacted, , first, second] = body.content;
    expect(thinking.thinking).toBe('The user wants the listing.');
    expect(typeof thinking.signature).toBe('string');
    expect(thinking.signature.length).toBeGreaterThan(10);
    expect(redacted).toEqual({ type: 'redacted_thinking', data: 'EncryptedBlob==' });
    expect(first).toMatchObject({ name: 'terminal', input: { command: 'ls' } });
    expect(second).toMatchObject({ name: 'read', input: { path: 'a.txt' } });
    expect(first.id).toMatch(/^toolu_01/);
    expect(first.id).not.toBe(second.id);
    expect(body.stop_reason).toBe('tool_use');
  });

  it('turns string arguments into input: parsed when a JSON object, else the raw string', async () => {
    const { body } = await api.ask(
      {
        turns: [
          {
            tool_calls: [
              { name: 'a', arguments: '{"x": 1}' },
              { name: 'b', arguments: '{"x": ' },
            ],
          },
        ],
      },
      user('go'),
    );
    expect(body.content.map((b: Json) => b.input)).toEqual([{ x: 1 }, '{"x": ']);
  });

  it('answers scripted errors in the Anthropic error shape and redacts x-api-key', async () => {
    const server = await start({ turns: [{ error: { status: 529 } }, { error: { status: 429 } }] });
    const overloaded = await api.postJson(server, user('x'));
    expect(overloaded.status).toBe(529);
    expect(overloaded.body).toEqual({
      type: 'error',
      error: { type: 'overloaded_error', message: expect.stringContaining('llm-replay') },
    });
    const limited = await api.postJson(server, user('x'));
    expect(limited.body.error.type).toBe('rate_limit_error');
    const recorded = server.requests();
    expect(recorded.map((r) => r.headers['x-api-key'])).toEqual(['[REDACTED]', '[REDACTED]']);
    expect(recorded[0]!.headers['anthropic-version']).toBe('2023-06-01');
    expect(JSON.stringify(recorded)).not.toContain('sk-ant-secret');
  });

  it('matches the last user message with text, skipping tool_result-only user messages', async () => {
    const server = await start({
      turns: [
        { content: 'wrong', when: { last_user_message_contains: 'result text' } },
        { content: 'right', when: { last_user_message_contains: 'list files', last_tool_result_contains: 'a.txt' } },
      ],
    });
    const messages = [
      { role: 'user', content: [{ type: 'text', text: 'please list files' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'terminal', input: {} }] },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'a.txt result text' }] },
        ],
      },
    ];
    const { body } = await api.postJson(server, request(messages));
    expect(body.content[0].text).toBe('right');
  });
});

describe('Anthropic Messages, streaming', () => {
  it('streams message_start, content blocks with their deltas, message_delta and message_stop', async () => {
    const result = await api.askStreaming({ turns: [fullTurn] }, user('go'));
    expect(result.contentType).toMatch(/^text\/event-stream/);
    const events = payloads(result.events);
    result.events.forEach((event, i) => {
      expect(event.event).toBe(events[i].type);
    });
    const start_ = events[0];
    expect(start_.type).toBe('message_start');
    expect(start_.message).toMatchObject({ type: 'message', role: 'assistant', content: [], stop_reason: null });
    expect(start_.message.id).toMatch(/^msg_01/);
    expect(start_.message.usage.input_tokens).toBeGreaterThan(0);
    expect(events.map((e) => e.type)).toContain('ping');
    expect(events.at(-2)).toEqual({
      type: 'message_delta',
      delta: { stop_reason: 'tool_use', stop_sequence: null },
      usage: { output_tokens: expect.any(Number) },
    });
    expect(events.at(-1)).toEqual({ type: 'message_stop' });

    // Rebuild the blocks the way an SDK does.
    const blocks: Json[] = [];
    const json: string[] = [];
    for (const e of events) {
      if (e.type === 'content_block_start') {
        expect(e.index).toBe(blocks.length);
        blocks.push({ ...e.content_block });
        json.push('');
      } else if (e.type === 'content_block_delta') {
        const block = blocks[e.index];
        const d = e.delta;
        if (d.type === 'text_delta') block.text += d.text;
        else if (d.type === 'thinking_delta') block.thinking += d.thinking;
        else if (d.type === 'signature_delta') block.signature = d.signature;
        else if (d.type === 'input_json_delta') json[e.index] += d.partial_json;
        else throw new Error(`unexpected delta ${d.type}`);
      } else if (e.type === 'content_block_stop') {
        if (blocks[e.index].type === 'tool_use') blocks[e.index].input = JSON.parse(json[e.index]!);
      }
    }
    expect(blocks.map((b) => b.type)).toEqual(['thinking', 'redacted_thinking', 'text', 'tool_use', 'tool_use']);
    expect(blocks[0].thinking).toBe('The user wants the listing.');
    expect(blocks[0].signature.length).toBeGreaterThan(10);
    expect(blocks[1].data).toBe('EncryptedBlob==');
    expect(blocks[2].text).toBe('Let me check.');
    expect(blocks[3]).toMatchObject({ name: 'terminal', input: { command: 'ls' } });
    expect(blocks[4]).toMatchObject({ name: 'read', input: { path: 'a.txt' } });
    expect(blocks[3].id).toMatch(/^toolu_01/);
    const stops = events.filter((e) => e.type === 'content_block_stop').map((e) => e.index);
    expect(stops).toEqual([0, 1, 2, 3, 4]);
  });

  it('streams plain text with end_turn', async () => {
    const events = payloads((await api.askStreaming({ turns: [{ content: 'One two three.' }] }, user('hi'))).events);
    const text = events.filter((e) => e.delta?.type === 'text_delta').map((e) => e.delta.text);
    expect(text.length).toBeGreaterThan(1);
    expect(text.join('')).toBe('One two three.');
    expect(events.find((e) => e.type === 'message_delta').delta.stop_reason).toBe('end_turn');
  });
});

describe('Anthropic models list', () => {
  it('answers GET /v1/models in the Anthropic format when anthropic-version is sent', async () => {
    const server = await start({ model: 'claude-replay', turns: [] });
    const body = (await (await fetch(`${server.url}/v1/models`, { headers })).json()) as Json;
    expect(body).toEqual({
      data: [{ type: 'model', id: 'claude-replay', display_name: 'claude-replay', created_at: expect.any(String) }],
      has_more: false,
      first_id: 'claude-replay',
      last_id: 'claude-replay',
    });
  });
});
