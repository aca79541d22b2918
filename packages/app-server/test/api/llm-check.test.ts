import { type LlmReplay, startLlmReplay } from '@bosun/llm-replay';
import { afterAll, beforeEach, expect, it } from 'vitest';
import { closedPort } from '../../../sources/test/support/closed-port.ts';
import { maskKey } from '../../src/settings/llm-check.ts';
import { type TestUser, describeApi } from './harness.ts';

const CHECK = '/api/v1/settings/llm/check';
const KEY = 'sk-check-plaintext-4b9e11aa7c';
const INSTANCE_KEY = 'sk-instance-check-52d0e8';

// The instance's LLM and another endpoint, both scripted; started before the servers that point at them.
const instance = await startLlmReplay({ script: { turns: [{ content: 'OK' }], repeat_last: true } });
const other = await startLlmReplay({ script: { turns: [{ content: 'OK' }], repeat_last: true } });
afterAll(async () => {
  await instance.close();
  await other.close();
});

const lastRequest = (llm: LlmReplay) => llm.requests().at(-1);

describeApi(
  'checking an LLM',
  (api) => {
    const check = (as: TestUser | undefined, body?: unknown) =>
      api().call(CHECK, { method: 'POST', ...(as ? { as } : {}), ...(body === undefined ? {} : { body }) });

    beforeEach(() => {
      instance.setScript({ turns: [{ content: 'OK' }], repeat_last: true });
      other.setScript({ turns: [{ content: 'OK' }], repeat_last: true });
    });

    it('answers the model’s short answer and the latency, with the caller’s own settings', async () => {
      const user = await api().user({ llm_model: 'openai/own-model', llm_base_url: other.baseUrl, llm_api_key: KEY });
      const answer = await check(user);
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body).toEqual({
        ok: true,
        model: 'openai/own-model',
        latency_ms: expect.any(Number),
        answer: 'OK',
      });
      const sent = lastRequest(other);
      expect(sent).toMatchObject({
        path: '/v1/chat/completions',
        api: 'chat_completions',
        body: { model: 'own-model' },
      });
      expect(sent?.headers.authorization).toBe('[REDACTED]');
      expect(answer.text).not.toContain(KEY);
    });

    it('checks the LLM given in the body, in its wire API (Anthropic Messages), with the key given', async () => {
      const user = await api().user();
      const answer = await check(user, { model: 'anthropic/claude-check', base_url: other.url, api_key: KEY });
      expect(answer.body).toMatchObject({ ok: true, model: 'anthropic/claude-check', answer: 'OK' });
      expect(lastRequest(other)).toMatchObject({ path: '/v1/messages', body: { model: 'claude-check' } });
      expect(lastRequest(other)?.headers['x-api-key']).toBe('[REDACTED]');
    });

    it('answers a 401 of the model with its message verbatim and its status, the key masked', async () => {
      const message = `Incorrect API key provided: ${KEY}. You can find your API key at https://example.test.`;
      other.setScript({
        turns: [{ error: { status: 401, body: { error: { message, type: 'invalid_request_error' } } } }],
      });
      const user = await api().user();
      const answer = await check(user, { model: 'gpt-check', base_url: other.baseUrl, api_key: KEY });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({
        ok: false,
        model: 'gpt-check',
        latency_ms: expect.any(Number),
        status: 401,
        error: 'Incorrect API key provided: ****. You can find your API key at https://example.test.',
      });
      expect(answer.text).not.toContain(KEY);
      expect(api().logs.join('\n')).not.toContain(KEY);
    });

    it('says when the LLM cannot be reached, or the base URL is no URL', async () => {
      const user = await api().user();
      const closed = `http://127.0.0.1:${await closedPort()}/v1`;
      const unreachable = await check(user, { model: 'openai/x', base_url: closed, api_key: KEY });
      expect(unreachable.body).toMatchObject({ ok: false, model: 'openai/x' });
      expect(unreachable.body.error).toMatch(
        /^Cannot reach the LLM at http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions: /,
      );
      const bad = await check(user, { model: 'openai/x', base_url: 'not a url' });
      expect(bad.body).toMatchObject({ ok: false, error: 'The base URL is not a URL: not a url' });
    });

    it('uses the instance’s LLM and key when the caller set none, and the instance’s key only at its endpoint', async () => {
      const user = await api().user();
      expect((await check(user)).body).toMatchObject({ ok: true, model: 'instance/check-model', answer: 'OK' });
      expect(lastRequest(instance)?.headers.authorization).toBe('[REDACTED]');
      const elsewhere = await check(user, { base_url: other.baseUrl });
      expect(elsewhere.body).toMatchObject({ ok: true });
      expect(lastRequest(other)?.headers.authorization).toBeUndefined();
    });

    it('as the wrong user: checks the stranger’s own settings, never sends the owner’s key', async () => {
      const [owner, stranger] = await api().users(2);
      await api().call('/api/v1/settings', {
        method: 'POST',
        as: owner,
        body: { llm_model: 'openai/owner-model', llm_base_url: other.baseUrl, llm_api_key: KEY },
      });
      // The stranger's effective LLM is the instance's: their check goes there, with the instance's model.
      const theirs = await check(stranger);
      expect(theirs.body).toMatchObject({ ok: true, model: 'instance/check-model' });
      const before = other.requests().length;
      // Pointed at the owner's endpoint without a key: the owner's key is not theirs to send (nor the instance's).
      const pointed = await check(stranger, { model: 'openai/owner-model', base_url: other.baseUrl });
      expect(pointed.body).toMatchObject({ ok: true });
      expect(other.requests()).toHaveLength(before + 1);
      expect(lastRequest(other)?.headers.authorization).toBeUndefined();
      expect(pointed.text).not.toContain(KEY);
      expect((await check(undefined)).status).toBe(401);
    });

    it('refuses a body with unknown fields or a blank model (422 pointing at the field)', async () => {
      const user = await api().user();
      const unknown = await check(user, { model: 'x', temperature: 2 });
      expect(unknown.status).toBe(422);
      const blank = await check(user, { model: '   ' });
      expect(blank.status).toBe(422);
      expect(blank.body.detail[0].loc).toEqual(['body', 'model']);
    });
  },
  { config: { llm_model: 'instance/check-model', llm_base_url: instance.baseUrl, llm_api_key: INSTANCE_KEY } },
);

describeApi(
  'checking an LLM on a server that listens beyond loopback',
  (api) => {
    const check = (as: TestUser, body?: unknown) =>
      api().call(CHECK, { method: 'POST', as, ...(body === undefined ? {} : { body }) });

    it('never calls an internal address a person typed (the cloud metadata, the database), but checks the instance’s own LLM', async () => {
      const user = await api().user({ llm_model: 'openai/own-model', llm_base_url: other.baseUrl, llm_api_key: KEY });
      const before = other.requests().length;
      const refused = await check(user);
      expect(refused.status).toBe(200);
      expect(refused.body).toMatchObject({ ok: false, model: 'openai/own-model' });
      expect(refused.body.error).toMatch(/^127\.0\.0\.1:\d+ is an internal address, which this server does not call/);
      for (const address of ['http://169.254.169.254/latest', 'http://[::1]:5432', 'http://10.1.2.3']) {
        const answer = await check(user, { base_url: address });
        expect(answer.body.error, address).toMatch(/is an internal address/);
      }
      expect(other.requests()).toHaveLength(before);
      // The operator's LLM at an internal address is the instance's own: checked as conversations use it.
      const instanceUser = await api().user();
      expect((await check(instanceUser)).body).toMatchObject({ ok: true, model: 'instance/check-model', answer: 'OK' });
    });
  },
  {
    config: {
      host: '0.0.0.0',
      llm_model: 'instance/check-model',
      llm_base_url: instance.baseUrl,
      llm_api_key: INSTANCE_KEY,
    },
  },
);

it('masks a key, and the parts of it a provider echoes', () => {
  expect(maskKey(`bad key ${KEY}`, KEY)).toBe('bad key ****');
  expect(maskKey(`bad key ${KEY.slice(0, 12)}...${KEY.slice(-8)}`, KEY)).toBe('bad key ****...****');
  expect(maskKey('nothing here', null)).toBe('nothing here');
});
