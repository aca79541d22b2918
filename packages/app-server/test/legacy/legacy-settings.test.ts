import { expect, it } from 'vitest';
import { describeApi } from '../api/harness.ts';

const INSTANCE = {
  llm_model: 'instance/model',
  llm_base_url: 'http://llm.instance.test/v1',
  llm_api_key: 'sk-inst-5150',
};

describeApi(
  'OpenHands’ legacy settings, options and secrets routes',
  (api) => {
    it('GET /api/settings: the V1 settings flat, as OpenHands’ client reads them, never a secret', async () => {
      const user = await api().user({
        llm_api_key: 'sk-own-7007',
        agent_settings_diff: { condenser: { max_size: 90 } },
      });
      const answer = await api().call('/api/settings', { as: user });
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body).toMatchObject({
        llm_model: INSTANCE.llm_model,
        llm_api_key: null,
        llm_api_key_set: true,
        search_api_key: null,
        provider_tokens_set: {},
        v1_enabled: true,
        agent: 'CodeActAgent',
        condenser_max_size: 90,
        mcp_config: null,
        email: user.email,
        user_consents_to_analytics: null,
      });
      expect(answer.text).not.toContain('sk-own-7007');
      expect(answer.text).not.toContain(INSTANCE.llm_api_key);
    });

    it('POST /api/settings: the whole object OpenHands 1.5 posts back is stored (keys kept unless cleared)', async () => {
      const user = await api().user({ llm_api_key: 'sk-own-8118' });
      const held = (await api().call('/api/settings', { as: user })).body;
      const posted = {
        ...held,
        language: 'de',
        user_consents_to_analytics: false,
        search_api_key: '',
        condenser_max_size: 120,
        mcp_config: { sse_servers: ['https://mcp.example.test/sse'], stdio_servers: [], shttp_servers: [] },
        is_new_user: false,
      };
      const answer = await api().call('/api/settings', { method: 'POST', as: user, body: posted });
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body).toEqual({ message: 'Settings stored' });
      const after = (await api().call('/api/settings', { as: user })).body;
      expect(after).toMatchObject({
        language: 'de',
        user_consents_to_analytics: false,
        llm_api_key_set: true,
        condenser_max_size: 120,
        mcp_config: posted.mcp_config,
      });
      expect((await api().call('/api/v1/settings', { as: user })).body.language).toBe('de');
      const cleared = await api().call('/api/settings', {
        method: 'POST',
        as: user,
        body: { llm_api_key: '', llm_base_url: 'https://elsewhere.test/v1' },
      });
      expect(cleared.status).toBe(200);
      expect((await api().call('/api/settings', { as: user })).body.llm_api_key_set).toBe(false);
      // The LLM page's basic mode: no base URL of the user's, so the instance's endpoint (and key) again.
      const basic = await api().call('/api/settings', { method: 'POST', as: user, body: { llm_base_url: '' } });
      expect(basic.status).toBe(200);
      expect((await api().call('/api/settings', { as: user })).body).toMatchObject({
        llm_base_url: INSTANCE.llm_base_url,
        llm_api_key_set: true,
      });
      const bad = await api().call('/api/settings', { method: 'POST', as: user, body: { condenser_max_size: 5 } });
      expect(bad.status).toBe(422);
      expect(bad.body.detail[0].loc).toEqual(['body', 'condenser_max_size']);
    });

    it('need the credentials the V1 routes need', async () => {
      for (const [method, path] of [
        ['GET', '/api/settings'],
        ['POST', '/api/settings'],
        ['GET', '/api/options/models'],
        ['GET', '/api/options/agents'],
        ['GET', '/api/options/security-analyzers'],
        ['GET', '/api/secrets'],
        ['POST', '/api/secrets'],
        ['DELETE', '/api/secrets/ANY'],
        ['POST', '/api/add-git-providers'],
        ['POST', '/api/unset-provider-tokens'],
      ] as const) {
        const body = method === 'POST' ? { name: 'A', value: 'v', provider_tokens: {} } : undefined;
        const answer = await api().call(path, { method, body, headers: { authorization: 'Bearer sk-bosun-wrong' } });
        expect(answer.status, `${method} ${path}`).toBe(401);
        expect(answer.body.detail, path).toEqual(expect.any(String));
      }
    });

    it('GET /api/options/*: the client configuration (no credentials), the models, agents and analyzers', async () => {
      const config = await api().call('/api/options/config');
      expect(config.status, config.text).toBe(200);
      expect(config.body).toMatchObject({
        APP_MODE: 'oss',
        GITHUB_CLIENT_ID: '',
        POSTHOG_CLIENT_KEY: '',
        FEATURE_FLAGS: { ENABLE_BILLING: false, HIDE_LLM_SETTINGS: false },
      });
      const user = await api().user();
      const models = await api().call('/api/options/models', { as: user });
      expect(models.status, models.text).toBe(200);
      expect(models.body).toContain(INSTANCE.llm_model);
      expect(models.body.every((name: unknown) => typeof name === 'string')).toBe(true);
      expect(models.body.length).toBeGreaterThan(1);
      expect((await api().call('/api/options/agents', { as: user })).body).toEqual(['CodeActAgent']);
      expect((await api().call('/api/options/security-analyzers', { as: user })).body).toEqual(['llm']);
    });

    it('/api/secrets: create (201), list by name, rename keeping the value, delete; one user never sees another’s', async () => {
      const [alice, bob] = await api().users(2);
      const created = await api().call('/api/secrets', {
        method: 'POST',
        as: alice,
        body: { name: 'MY_TOKEN', value: 'tok-3141', description: 'for CI' },
      });
      expect(created.status, created.text).toBe(201);
      expect(created.body).toEqual({ message: 'Secret created successfully' });
      const listed = await api().call('/api/secrets', { as: alice });
      expect(listed.body).toEqual({ custom_secrets: [{ name: 'MY_TOKEN', description: 'for CI' }] });
      expect(listed.text).not.toContain('tok-3141');
      expect((await api().call('/api/secrets', { as: bob })).body).toEqual({ custom_secrets: [] });
      expect((await api().call('/api/secrets/MY_TOKEN', { method: 'DELETE', as: bob })).status).toBe(404);
      const twice = await api().call('/api/secrets', {
        method: 'POST',
        as: alice,
        body: { name: 'MY_TOKEN', value: 'x' },
      });
      expect(twice.status).toBe(409);
      const renamed = await api().call('/api/secrets/MY_TOKEN', {
        method: 'PUT',
        as: alice,
        body: { name: 'CI_TOKEN', description: null },
      });
      expect(renamed.status, renamed.text).toBe(200);
      expect(await api().repositories.secrets.values(alice.id)).toEqual({ CI_TOKEN: 'tok-3141' });
      const deleted = await api().call('/api/secrets/CI_TOKEN', { method: 'DELETE', as: alice });
      expect(deleted.body).toEqual({ message: 'Secret deleted successfully' });
      expect((await api().call('/api/secrets', { as: alice })).body.custom_secrets).toEqual([]);
    });

    it('/api/add-git-providers and /api/unset-provider-tokens (the OSS logout) change the provider tokens', async () => {
      const user = await api().user();
      const added = await api().call('/api/add-git-providers', {
        method: 'POST',
        as: user,
        body: { provider_tokens: { github: { token: 'ghp_legacy42', host: null } } },
      });
      expect(added.status, added.text).toBe(200);
      expect((await api().call('/api/settings', { as: user })).body.provider_tokens_set).toEqual({ github: null });
      const unset = await api().call('/api/unset-provider-tokens', { method: 'POST', as: user });
      expect(unset.status, unset.text).toBe(200);
      expect((await api().call('/api/settings', { as: user })).body.provider_tokens_set).toEqual({});
    });
  },
  { config: INSTANCE },
);
