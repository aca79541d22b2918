import { afterEach, describe, expect, it } from 'vitest';
import { type Json, closeServers, endpoint, payloads, start } from './support.ts';

afterEach(closeServers);

const api = endpoint('/responses');
const request = (input: unknown) => ({ model: 'gpt-test', input });

const toolTurn = {
  content: 'Listing.',
  reasoning: 'Need to look at the files.',
  tool_calls: [
    { name: 'terminal', arguments: { command: 'ls' } },
    { name: 'terminal', arguments: { command: 'pwd' } },
  ],
};

describe('Responses API, non-streaming', () => {
  it('answers text as a message output item', async () => {
    const { status, body } = await api.ask({ turns: [{ content: 'Hello!' }] }, request('hi'));
    expect(status).toBe(200);
    expect(body.id).toMatch(/^resp_[0-9a-f]{48}$/);
    expect(body).toMatchObject({ object: 'response', status: 'completed', model: 'gpt-test', error: null });
    expect(body.created_at).toBeGreaterThan(1_700_000_000);
    expect(body.output).toHaveLength(1);
    expect(body.output[0].id).toMatch(/^msg_/);
    expect(body.output[0]).toMatchObject({
      type: 'message',
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: 'Hello!', annotations: [] }],
    });
    expect(body.usage.input_tokens).toBeGreaterThan(0);
    expect(body.usage.output_tokens).toBeGreaterThan(0);
    expect(body.usage.total_tokens).toBe(body.usage.input_tokens + body.usage.output_tokens);
  });

  it('emits reasoning, message and parallel function_call items', async () => {
    const { server, body } = await api.ask(
      { turns: [toolTurn, { ...toolTurn, reasoning_signature: 'opaque-blob' }] },
      request('go'),
    );
    expect(body.output.map((item: Json) => item.type)).toEqual([
      'reasoning',
      'message',
      'function_call',
      'function_call',
    ]);
    const [reasoning, , first, second] = body.output;
    expect(reasoning.id).toMatch(/^rs_/);
    expect(reasoning.summary).toEqual([{ type: 'summary_text', text: 'Need to look at the files.' }]);
    expect(typeof reasoning.encrypted_content).toBe('string');
    expect(reasoning.encrypted_content.length).toBeGreaterThan(10);
    expect(first).toMatchObject({ type: 'function_call', name: 'terminal', arguments: '{"command":"ls"}' });
    expect(second.arguments).toBe('{"command":"pwd"}');
    expect(first.call_id).toMatch(/^call_/);
    expect(first.id).toMatch(/^fc_/);
    expect(first.call_id).not.toBe(second.call_id);
    expect(body.usage.output_tokens_details.reasoning_tokens).toBeGreaterThan(0);
    const again = await api.postJson(server, request('go'));
    expect(again.body.output[0].encrypted_content).toBe('opaque-blob');
  });

  it('reports finish_reason "length" as an incomplete response', async () => {
    const { body } = await api.ask({ turns: [{ content: 'cut sho', finish_reason: 'length' }] }, request('x'));
    expect(body.status).toBe('incomplete');
    expect(body.incomplete_details).toEqual({ reason: 'max_output_tokens' });
  });

  it('matches `when` against Responses input items (message content and function_call_output)', async () => {
    const server = await start({
      turns: [
        { content: 'after tool', when: { last_tool_result_contains: 'total 42' } },
        { content: 'deploying', when: { last_user_message_contains: 'deploy' } },
      ],
    });
    const input = [
      { role: 'user', content: [{ type: 'input_text', text: 'please deploy' }] },
      { type: 'function_call', call_id: 'call_1', name: 'terminal', arguments: '{}' },
      { type: 'function_call_output', call_id: 'call_1', output: 'total 42' },
    ];
    const first = await api.postJson(server, request(input));
    expect(first.body.output[0].content[0].text).toBe('after tool');
    const second = await api.postJson(server, request([{ type: 'message', role: 'user', content: 'deploy' }]));
    expect(second.body.output[0].content[0].text).toBe('deploying');
    expect(server.requests().map((r) => r.turn_index)).toEqual([0, 1]);
  });
});

describe('Responses API, streaming', () => {
  it('streams the named events with increasing sequence numbers and a final response.completed', async () => {
    const result = await api.askStreaming({ turns: [toolTurn] }, request('go'));
    expect(result.contentType).toMatch(/^text\/event-stream/);
    expect(result.text).not.toContain('[DONE]');
    const events = payloads(result.events);
    result.events.forEach((event, i) => {
      expect(event.event).toBe(events[i].type);
    });
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
    const types = events.map((e) => e.type);
    expect(types.slice(0, 2)).toEqual(['response.created', 'response.in_progress']);
    expect(types.at(-1)).toBe('response.completed');
    expect(events[0].response).toMatchObject({ object: 'response', status: 'in_progress', output: [] });
    for (const type of [
      'response.output_item.added',
      'response.output_item.done',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.reasoning_summary_part.added',
      'response.reasoning_summary_text.delta',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
    ]) {
      expect(types).toContain(type);
    }
    expect(types.filter((t) => t === 'response.output_item.added')).toHaveLength(4);
    expect(types.filter((t) => t === 'response.output_item.done')).toHaveLength(4);

    const text = events.filter((e) => e.type === 'response.output_text.delta').map((e) => e.delta);
    expect(text.join('')).toBe('Listing.');
    const summary = events.filter((e) => e.type === 'response.reasoning_summary_text.delta').map((e) => e.delta);
    expect(summary.join('')).toBe('Need to look at the files.');
    const args = new Map<number, string>();
    for (const e of events.filter((e) => e.type === 'response.function_call_arguments.delta')) {
      args.set(e.output_index, (args.get(e.output_index) ?? '') + e.delta);
    }
    expect([...args.values()]).toEqual(['{"command":"ls"}', '{"command":"pwd"}']);

    const completed = events.at(-1).response;
    expect(completed.status).toBe('completed');
    expect(completed.id).toBe(events[0].response.id);
    expect(completed.usage.total_tokens).toBeGreaterThan(0);
    const done = events.filter((e) => e.type === 'response.output_item.done').map((e) => e.item);
    expect(completed.output).toEqual(done);
    expect(done[3].call_id).toMatch(/^call_/);
  });
});
