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

    it('accept their own GET answer posted back whole, with OpenHands’ client fields, and change nothing', async () => {
      const user = await api().user();
      await post(user, {
        llm_model: 'mine',
        llm_api_key: 'sk-kept-4242',
        agent_settings_diff: { condenser: { max_size: 80 } },
        conversation_settings_diff: { max_iterations: 40 },
      });
      const before = (await get(user)).body;
      // What OpenHands' web client 1.5 posts: the settings it holds, its own fields added.
      const posted = { ...before, is_new_user: false, condenser_max_size: 240, search_api_key_set: false, agent: 'x' };
      const answer = await post(user, posted);
      expect(answer.status, answer.text).toBe(200);
      const after = await get(user);
      expect(after.body).toEqual(before);
      expect(after.text).not.toContain('sk-kept-4242');
      expect(await api().repositories.settings.get(user.id)).not.toHaveProperty('is_new_user');
    });

    it('take a key at agent_settings_diff.llm.api_key as the LLM key: sealed, never shown, not in agent_settings', async () => {
      const user = await api().user({ llm_base_url: 'https://own.llm.test/v1' });
      expect((await get(user)).body.llm_api_key_set).toBe(false);
      const answer = await post(user, { agent_settings_diff: { llm: { api_key: 'sk-diff-7731', temperature: 0.2 } } });
      expect(answer.status, answer.text).toBe(200);
      const after = await get(user);
      expect(after.body.llm_api_key_set).toBe(true);
      expect(after.body.agent_settings).toEqual({ llm: { temperature: 0.2 } });
      expect(after.text).not.toContain('sk-diff-7731');
      const stored = await api().repositories.settings.get(user.id);
      expect(stored?.llm_api_key).toBe('sk-diff-7731');
      expect(JSON.stringify(stored?.agent_settings)).not.toContain('sk-diff-7731');
      const two = await post(user, { llm_api_key: 'sk-one', agent_settings_diff: { llm: { api_key: 'sk-two' } } });
      expect(two.status).toBe(422);
      expect(two.body.detail[0].loc).toEqual(['body', 'agent_settings_diff', 'llm', 'api_key']);
      expect((await post(user, { agent_settings_diff: { llm: { api_key: null } } })).status).toBe(200);
      expect((await get(user)).body.llm_api_key_set).toBe(false);
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
        ['{"confirmation_mode":"yes"}', ['body', 'confirmation_mode']],
        ['{"disabled_skills":["ok",7]}', ['body', 'disabled_skills', 1]],
        ['{"sandbox_grouping_strategy":"SOMETIMES"}', ['body', 'sandbox_grouping_strategy']],
        ['{"agent_settings_diff":{"llm":{"num_retries":-1}}}', ['body', 'agent_settings_diff', 'llm', 'num_retries']],
        [
          '{"agent_settings_diff":{"llm":{"retry_max_wait":"1m"}}}',
          ['body', 'agent_settings_diff', 'llm', 'retry_max_wait'],
        ],
        [
          '{"agent_settings_diff":{"search":{"api_key":"sk-hidden"}}}',
          ['body', 'agent_settings_diff', 'search', 'api_key'],
        ],
        ['[]', ['body']],
        ['{"llm_model":', ['body']],
      ];
      for (const [body, loc] of cases) {
        const answer = await post(user, body);
        expect(answer.status, body).toBe(422);
        expect(answer.body.detail[0].loc, body).toEqual(loc);
      }
      const mixed = await post(user, { llm_model: 'should-not-stick', confirmation_mode: 'yes' });
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
