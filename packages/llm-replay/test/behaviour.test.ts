import { afterEach, describe, expect, it } from 'vitest';
import type { Script } from '../src/index.ts';
import { stream, type Json, type ParsedEvent, closeServers, payloads, post, start } from './support.ts';

afterEach(closeServers);

interface Api {
  name: string;
  path: string;
  body(text: string): Record<string, unknown>;
  text(body: Json): string | undefined;
  streamText(events: Json[]): string;
  errorMessage(body: Json): string;
}

const apis: Api[] = [
  {
    name: 'chat_completions',
    path: '/v1/chat/completions',
    body: (text) => ({ model: 'm', messages: [{ role: 'user', content: text }] }),
    text: (body) => body.choices[0].message.content,
    streamText: (events) => events.map((e) => e.choices[0]?.delta.content ?? '').join(''),
    errorMessage: (body) => body.error.message,
  },
  {
    name: 'responses',
    path: '/v1/responses',
    body: (text) => ({ model: 'm', input: [{ role: 'user', content: text }] }),
    text: (body) => body.output.find((item: Json) => item.type === 'message')?.content[0].text,
    streamText: (events) =>
      events
        .filter((e) => e.type === 'response.output_text.delta')
        .map((e) => e.delta)
        .join(''),
    errorMessage: (body) => body.error.message,
  },
  {
    name: 'messages',
    path: '/v1/messages',
    body: (text) => ({ model: 'm', max_tokens: 100, messages: [{ role: 'user', content: text }] }),
    text: (body) => body.content.find((block: Json) => block.type === 'text')?.text,
    streamText: (events) =>
      events
        .filter((e) => e.delta?.type === 'text_delta')
        .map((e) => e.delta.text)
        .join(''),
    errorMessage: (body) => body.error.message,
  },
];

const modes = [
  { mode: 'non-streaming', streaming: false },
  { mode: 'streaming', streaming: true },
];

describe.each(apis)('$name', (api) => {
  describe.each(modes)('$mode', ({ streaming }) => {
    /** Sends one request; returns the status, answered text (if any) and the JSON body of errors. */
    async function ask(url: string, text: string, signal?: AbortSignal) {
      const body = { ...api.body(text), ...(streaming ? { stream: true } : {}) };
      const res = await post(url + api.path, body, signal ? { signal } : {});
      const raw = await res.text();
      if (res.status !== 200) return { status: res.status, raw, error: JSON.parse(raw) as Json };
      const answer = streaming ? api.streamText(payloads(parseEvents(raw))) : api.text(JSON.parse(raw));
      return { status: res.status, raw, answer };
    }

    it('takes the first unused turn whose `when` matches, in script order', async () => {
      const server = await start({
        turns: [
          { content: 'deploying now', when: { last_user_message_contains: 'deploy' } },
          { content: 'generic one' },
          { content: 'generic two' },
        ],
      });
      expect((await ask(server.url, 'hello')).answer).toBe('generic one');
      expect((await ask(server.url, 'please deploy it')).answer).toBe('deploying now');
      expect((await ask(server.url, 'deploy again')).answer).toBe('generic two');
      expect(server.requests().map((r) => r.turn_index)).toEqual([1, 0, 2]);
      expect(server.requests().every((r) => r.api === api.name)).toBe(true);
    });

    it('answers 500 naming the problem when no turn matches, and records it', async () => {
      const server = await start({
        turns: [{ content: 'only for cats', when: { last_user_message_contains: 'cat' } }],
      });
      const result = await ask(server.url, 'dogs');
      expect(result.status).toBe(500);
      expect(api.errorMessage(result.error)).toContain('no scripted turn matched');
      expect(api.errorMessage(result.error)).toContain('"dogs"');
      const [recorded] = server.requests();
      expect(recorded).toMatchObject({ turn_index: null, error: expect.stringContaining('no scripted turn matched') });
    });

    it('fails `times` times with the scripted error, then moves on', async () => {
      const server = await start({
        turns: [{ error: { status: 429, times: 2, headers: { 'retry-after': '0' } } }, { content: 'finally' }],
      });
      const first = await ask(server.url, 'x');
      expect(first.status).toBe(429);
      expect(api.errorMessage(first.error)).toContain('llm-replay');
      expect((await ask(server.url, 'x')).status).toBe(429);
      const third = await ask(server.url, 'x');
      expect(third).toMatchObject({ status: 200, answer: 'finally' });
      expect(server.requests().map((r) => r.turn_index)).toEqual([0, 0, 1]);
    });

    it('answers 200 with invalid JSON when malformed', async () => {
      const server = await start({ turns: [{ malformed: true }, { content: 'ok' }] });
      const res = await post(server.url + api.path, { ...api.body('x'), stream: streaming });
      expect(res.status).toBe(200);
      const raw = await res.text();
      if (streaming) expect(() => payloads(parseEvents(raw))).toThrow(SyntaxError);
      else expect(() => JSON.parse(raw)).toThrow(SyntaxError);
      expect((await ask(server.url, 'x')).answer).toBe('ok');
    });

    it('waits delay_ms before answering', async () => {
      const server = await start({ turns: [{ content: 'slow', delay_ms: 250 }] });
      const started = performance.now();
      const result = await ask(server.url, 'x');
      expect(performance.now() - started).toBeGreaterThanOrEqual(240);
      expect(result.answer).toBe('slow');
    });

    it('never answers a hanging turn; the client times out and the next turn answers', async () => {
      const server = await start({ turns: [{ hang: true }, { content: 'back' }] });
      const started = performance.now();
      await expect(ask(server.url, 'x', AbortSignal.timeout(200))).rejects.toThrow(/abort|timeout/i);
      expect(performance.now() - started).toBeGreaterThanOrEqual(190);
      expect((await ask(server.url, 'x')).answer).toBe('back');
      expect(server.requests().map((r) => r.turn_index)).toEqual([0, 1]);
    });
  });
});

function parseEvents(raw: string): ParsedEvent[] {
  return raw
    .split(/\n\n/)
    .filter((block) => block.trim() !== '')
    .map((block) => ({
      data: block
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice(6))
        .join('\n'),
    }));
}

const chat = (text: string, extra: Record<string, unknown> = {}) => ({
  model: 'm',
  messages: [{ role: 'user', content: text }],
  ...extra,
});

describe('turn consumption', () => {
  it('answers a turn `times` times before it is used up', async () => {
    const server = await start({ turns: [{ content: 'twice', times: 2 }, { content: 'then' }] });
    const answers: string[] = [];
    for (let i = 0; i < 3; i++) {
      const body = (await (await post(`${server.baseUrl}/chat/completions`, chat('x'))).json()) as Json;
      answers.push(body.choices[0].message.content);
    }
    expect(answers).toEqual(['twice', 'twice', 'then']);
  });

  it('repeats the last turn when turns run out and repeat_last is set', async () => {
    const server = await start({ repeat_last: true, turns: [{ content: 'first' }, { content: 'last' }] });
    const answers: string[] = [];
    for (let i = 0; i < 4; i++) {
      const body = (await (await post(`${server.baseUrl}/chat/completions`, chat('x'))).json()) as Json;
      answers.push(body.choices[0].message.content);
    }
    expect(answers).toEqual(['first', 'last', 'last', 'last']);
    expect(server.requests().map((r) => r.turn_index)).toEqual([0, 1, 1, 1]);
  });

  it('without repeat_last, answers 500 once the turns are used up', async () => {
    const server = await start({ turns: [{ content: 'one' }] });
    expect((await post(`${server.baseUrl}/chat/completions`, chat('x'))).status).toBe(200);
    const res = await post(`${server.baseUrl}/chat/completions`, chat('x'));
    expect(res.status).toBe(500);
    expect(((await res.json()) as Json).error.message).toContain('unused turns: none');
  });

  it('sends a custom error body and a raw string body as given', async () => {
    const server = await start({
      turns: [
        { error: { status: 400, body: { error: { message: 'context too long', code: 'context_length_exceeded' } } } },
        { error: { status: 502, body: '<html>Bad Gateway</html>' } },
      ],
    });
    const first = await post(`${server.baseUrl}/chat/completions`, chat('x'));
    expect(first.status).toBe(400);
    expect(await first.json()).toEqual({ error: { message: 'context too long', code: 'context_length_exceeded' } });
    const second = await post(`${server.baseUrl}/chat/completions`, chat('x'));
    expect(second.status).toBe(502);
    expect(second.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await second.text()).toBe('<html>Bad Gateway</html>');
  });

  it('sends a malformed string exactly', async () => {
    const server = await start({ turns: [{ malformed: '{"choices": [' }] });
    const res = await post(`${server.baseUrl}/chat/completions`, chat('x'));
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('{"choices": [');
  });

  it('spaces streamed events by stream_delay_ms', async () => {
    const server = await start({ turns: [{ content: 'a b c', stream_delay_ms: 40 }] });
    const started = performance.now();
    const { events } = await stream(`${server.baseUrl}/chat/completions`, chat('x'));
    // role chunk, 3 content chunks, finish chunk, [DONE]: 5 pauses.
    expect(events).toHaveLength(6);
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);
  });
});

describe('control endpoints and recording', () => {
  it('records every API request with redacted credentials, and not its own control requests', async () => {
    const server = await start({ turns: [{ content: 'a' }, { content: 'b' }] });
    await post(`${server.baseUrl}/chat/completions`, chat('first'), {
      headers: { authorization: 'Bearer sk-secret-1', 'x-custom': 'kept' },
    });
    await post(
      `${server.url}/v1/messages`,
      { model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] },
      {
        headers: { 'x-api-key': 'sk-secret-2' },
      },
    );
    const res = await fetch(`${server.url}/__requests`);
    const recorded = (await res.json()) as Json[];
    expect(recorded).toHaveLength(2);
    expect(recorded[0]).toMatchObject({
      method: 'POST',
      path: '/v1/chat/completions',
      body: chat('first'),
      turn_index: 0,
      api: 'chat_completions',
    });
    expect(recorded[0].headers.authorization).toBe('[REDACTED]');
    expect(recorded[0].headers['x-custom']).toBe('kept');
    expect(recorded[1]).toMatchObject({ path: '/v1/messages', turn_index: 1, api: 'messages' });
    expect(recorded[1].headers['x-api-key']).toBe('[REDACTED]');
    expect(JSON.stringify(recorded)).not.toMatch(/sk-secret/);
    expect(server.requests()).toEqual(recorded);
  });

  it('POST /__reset makes every turn unused and empties the log', async () => {
    const server = await start({ turns: [{ content: 'only' }] });
    await post(`${server.baseUrl}/chat/completions`, chat('x'));
    expect((await post(`${server.baseUrl}/chat/completions`, chat('x'))).status).toBe(500);
    const reset = await fetch(`${server.url}/__reset`, { method: 'POST' });
    expect(reset.status).toBe(200);
    expect(server.requests()).toEqual([]);
    expect((await post(`${server.baseUrl}/chat/completions`, chat('x'))).status).toBe(200);
  });

  it('POST /__script replaces the script, and rejects an invalid one naming the field', async () => {
    const server = await start({ turns: [{ content: 'old' }] });
    const bad = await post(`${server.url}/__script`, { turns: [{ tool_calls: [{ arguments: {} }] }] });
    expect(bad.status).toBe(400);
    const problem = (await bad.json()) as Json;
    expect(problem.error.errors).toEqual(['turns[0].tool_calls[0].name: required']);
    const script: Script = { turns: [{ content: 'new' }] };
    expect((await post(`${server.url}/__script`, script)).status).toBe(200);
    const body = (await (await post(`${server.baseUrl}/chat/completions`, chat('x'))).json()) as Json;
    expect(body.choices[0].message.content).toBe('new');
  });

  it('answers 400 for a body that is not JSON, 404 for unknown endpoints, and records both', async () => {
    const server = await start({ turns: [{ content: 'unused' }] });
    const bad = await post(`${server.baseUrl}/chat/completions`, '{not json');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as Json).error.type).toBe('invalid_request_error');
    const missing = await post(`${server.baseUrl}/embeddings`, { input: 'x' });
    expect(missing.status).toBe(404);
    expect(server.requests()).toMatchObject([
      { body: '{not json', turn_index: null, error: 'request body is not a JSON object' },
      { path: '/v1/embeddings', api: null, error: 'unknown endpoint' },
    ]);
    const ok = (await (await post(`${server.baseUrl}/chat/completions`, chat('x'))).json()) as Json;
    expect(ok.choices[0].message.content).toBe('unused');
  });

  it('close() ends hanging requests instead of waiting for them', async () => {
    const server = await start({ turns: [{ hang: true }] });
    const pending = post(`${server.baseUrl}/chat/completions`, chat('x'));
    while (server.requests().length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    const started = performance.now();
    await server.close();
    expect(performance.now() - started).toBeLessThan(1000);
    await expect(pending).rejects.toThrow();
  });
});
