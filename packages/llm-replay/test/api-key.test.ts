import { afterEach, describe, expect, it } from 'vitest';
import { type LlmReplay, startLlmReplay } from '../src/index.ts';
import { postJson } from './support.ts';

let server: LlmReplay | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const ask = { model: 'm', messages: [{ role: 'user', content: 'hi' }] };

describe('apiKey', () => {
  it('answers only requests carrying the key, as a provider does; the log never shows it', async () => {
    server = await startLlmReplay({
      script: { turns: [{ content: 'hello' }, { content: 'again' }] },
      apiKey: 'sk-right',
    });
    const url = `${server.baseUrl}/chat/completions`;
    const missing = await postJson(url, ask);
    const wrong = await postJson(url, ask, { authorization: 'Bearer sk-wrong' });
    expect([missing.status, wrong.status]).toEqual([401, 401]);
    expect(wrong.body.error.message).toMatch(/API key/);
    const right = await postJson(url, ask, { authorization: 'Bearer sk-right' });
    expect(right.status).toBe(200);
    expect(right.body.choices[0].message.content).toBe('hello');
    const anthropic = await postJson(
      `${server.baseUrl}/messages`,
      { ...ask, max_tokens: 10 },
      { 'x-api-key': 'sk-right' },
    );
    expect(anthropic.status).toBe(200);
    expect(server.requests().map((request) => request.error ?? null)).toEqual([
      'missing or wrong API key',
      'missing or wrong API key',
      null,
      null,
    ]);
    expect(JSON.stringify(server.requests())).not.toContain('sk-right');
  });
});
