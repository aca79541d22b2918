import { describe, expect, it } from 'vitest';
import { describeApi } from './harness.ts';

const INSTANCE = {
  llm_model: 'instance/model',
  llm_base_url: 'http://llm.instance.test/v1',
  llm_api_key: 'sk-instance-9f8e7d',
};

describeApi(
  'settings',
  (api) => {
    const get = async (as: Awaited<ReturnType<ReturnType<typeof api>['user']>>) => {
      const answer = await api().call('/api/v1/settings', { as });
      expect(answer.status).toBe(200);
      return answer;
    };
    const post = (as: Awaited<ReturnType<ReturnType<typeof api>['user']>>, body: unknown) =>
      api().call('/api/v1/settings', { method: 'POST', as, body });

    it('start from the instance LLM defaults, with its key only as llm_api_key_set', async () => {
      const user = await api().user();
      const answer = await get(user);
      expect(answer.body).toMatchObject({
        llm_model: INSTANCE.llm_model,
        llm_base_url: INSTANCE.llm_base_url,
        llm_api_key_set: true,
        confirmation_mode: false,
        disabled_skills: [],
        agent_settings: {},
        provider_tokens_set: {},
      });
      expect(answer.text).not.toContain(INSTANCE.llm_api_key);
    });

    it('round-trip a partial update and keep what was not sent', async () => {
      const user = await api().user();
      const first = await post(user, {
        llm_model: 'anthropic/claude-sonnet-4-5',
        llm_api_key: 'sk-user-secret-1234',
        confirmation_mode: true,
        disabled_skills: ['github'],
        language: 'fr',
      });
      expect(first.status).toBe(200);
      expect(first.body).toEqual({ message: 'Settings stored' });
      expect((await post(user, { git_user_name: 'Ada' })).status).toBe(200);
      const answer = await get(user);
      expect(answer.body).toMatchObject({
        llm_model: 'anthropic/claude-sonnet-4-5',
        llm_api_key_set: true,
        confirmation_mode: true,
        disabled_skills: ['github'],
        language: 'fr',
        git_user_name: 'Ada',
      });
      expect(answer.text).not.toContain('sk-user-secret-1234');
      expect(answer.body).not.toHaveProperty('llm_api_key');
    });

    it('accept their own GET answer posted back unchanged', async () => {
      const user = await api().user();
      await post(user, { llm_model: 'mine', agent_settings_diff: { condenser: { max_size: 80 } } });
      const before = (await get(user)).body;
      const { agent_settings: _agent, conversation_settings: _conversation, ...posted } = before;
      expect((await post(user, posted)).status).toBe(200);
      expect((await get(user)).body).toEqual(before);
    });

    it('deep-merge the *_diff objects, a null removing a key', async () => {
      const user = await api().user();
      await post(user, { agent_settings_diff: { condenser: { max_size: 80, keep_first: 2 }, tools: ['terminal'] } });
      await post(user, { agent_settings_diff: { condenser: { keep_first: null }, tools: ['browser'] } });
      await post(user, { conversation_settings_diff: { max_iterations: 50 } });
      const answer = await get(user);
      expect(answer.body.agent_settings).toEqual({ condenser: { max_size: 80 }, tools: ['browser'] });
      expect(answer.body.conversation_settings).toEqual({ max_iterations: 50 });
    });

    it('fall back to the instance default when a field is reset with null', async () => {
      const user = await api().user();
      await post(user, { llm_model: 'mine', llm_api_key: 'sk-mine-1' });
      await post(user, { llm_model: null });
      expect((await get(user)).body.llm_model).toBe(INSTANCE.llm_model);
    });

    it('never send the instance key to another endpoint: a user base URL needs the user’s key', async () => {
      const user = await api().user();
      await post(user, { llm_base_url: 'https://elsewhere.test/v1' });
      expect((await get(user)).body).toMatchObject({
        llm_base_url: 'https://elsewhere.test/v1',
        llm_api_key_set: false,
      });
      await post(user, { llm_api_key: 'sk-own-for-elsewhere' });
      expect((await get(user)).body.llm_api_key_set).toBe(true);
      await post(user, { llm_api_key: null, llm_base_url: null });
      expect((await get(user)).body).toMatchObject({ llm_base_url: INSTANCE.llm_base_url, llm_api_key_set: true });
    });

    it('answer 422 naming what is wrong, and store nothing of a refused update', async () => {
      const user = await api().user();
      const cases: [string, (string | number)[]][] = [
        ['{"llm_modle":"typo"}', ['body', 'llm_modle']],
        ['{"agent_settings":{"a":1}}', ['body', 'agent_settings']],
        ['{"confirmation_mode":"yes"}', ['body', 'confirmation_mode']],
        ['{"disabled_skills":["ok",7]}', ['body', 'disabled_skills', 1]],
        ['{"sandbox_grouping_strategy":"SOMETIMES"}', ['body', 'sandbox_grouping_strategy']],
        ['{"agent_settings_diff":{"llm":{"api_key":"sk-hidden"}}}', ['body', 'agent_settings_diff', 'llm', 'api_key']],
        ['{"agent_settings_diff":{"llm":{"num_retries":-1}}}', ['body', 'agent_settings_diff', 'llm', 'num_retries']],
        [
          '{"agent_settings_diff":{"llm":{"retry_max_wait":"1m"}}}',
          ['body', 'agent_settings_diff', 'llm', 'retry_max_wait'],
        ],
        ['[]', ['body']],
        ['{"llm_model":', ['body']],
      ];
      for (const [body, loc] of cases) {
        const answer = await post(user, body);
        expect(answer.status, body).toBe(422);
        expect(answer.body.detail[0].loc, body).toEqual(loc);
      }
      const mixed = await post(user, { llm_model: 'should-not-stick', bogus: 1 });
      expect(mixed.status).toBe(422);
      expect((await get(user)).body.llm_model).toBe(INSTANCE.llm_model);
      expect((await get(user)).text).not.toContain('sk-hidden');
    });

    describe('Git provider tokens', () => {
      it('show in settings as providers with their host, never the token', async () => {
        const user = await api().user();
        const stored = await api().call('/api/v1/secrets/git-providers', {
          method: 'POST',
          as: user,
          body: {
            provider_tokens: {
              github: { token: 'ghp_secret_token_1' },
              gitlab: { token: 'glpat-2', host: 'gitlab.acme.test' },
            },
          },
        });
        expect(stored.status).toBe(200);
        const answer = await get(user);
        expect(answer.body.provider_tokens_set).toEqual({ github: null, gitlab: 'gitlab.acme.test' });
        expect(answer.text).not.toContain('ghp_secret_token_1');

        const hostOnly = await api().call('/api/v1/secrets/git-providers', {
          method: 'POST',
          as: user,
          body: { provider_tokens: { github: { host: 'github.acme.test' } } },
        });
        expect(hostOnly.status).toBe(200);
        expect((await api().repositories.providerTokens.token(user.id, 'github'))?.token).toBe('ghp_secret_token_1');

        const noToken = await api().call('/api/v1/secrets/git-providers', {
          method: 'POST',
          as: user,
          body: { provider_tokens: { bitbucket: { host: 'bb.test' } } },
        });
        expect(noToken.status).toBe(422);
        expect(noToken.body.detail[0].loc).toEqual(['body', 'provider_tokens', 'bitbucket', 'token']);

        const bad = await api().call('/api/v1/secrets/git-providers', {
          method: 'POST',
          as: user,
          body: { provider_tokens: { gitgud: { token: 'x' } } },
        });
        expect(bad.status).toBe(422);

        expect((await api().call('/api/v1/secrets/git-providers', { method: 'DELETE', as: user })).status).toBe(200);
        expect((await get(user)).body.provider_tokens_set).toEqual({});
      });
    });
  },
  { config: INSTANCE },
);
