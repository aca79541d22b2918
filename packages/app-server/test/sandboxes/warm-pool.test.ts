import { LocalRuntime } from '@bosun/runtime';
import { beforeAll, expect, it } from 'vitest';
import { type TestUser, describeApi } from '../api/harness.ts';
import { until } from '../support/until.ts';

/**
 * `sandbox_warm_pool_size`: an embedded runtime keeps sandboxes started ahead, shaped as a new sandbox of a user on
 * the app's defaults; such a user's new sandbox is one of them (started before it was asked for), another user's
 * whose LLM endpoint (so whose network) differs is started cold.
 */
describeApi(
  'sandboxes kept warm',
  (api) => {
    let onDefaults: TestUser;
    let ownModel: TestUser;
    const warmReady = async () => (await api().runtime.runtime.health()).warm?.app ?? 0;

    beforeAll(async () => {
      onDefaults = await api().user();
      const settings = { llm_model: 'openai/own', llm_base_url: 'http://127.0.0.1:9/v1', llm_api_key: 'sk-own' };
      ownModel = await api().user(settings);
      expect(api().runtime.runtime).toBeInstanceOf(LocalRuntime);
      await expect(api().sandboxes.warmUp(1)).resolves.toBe(true);
      await until(warmReady, (ready) => ready === 1, 'a warm sandbox', 30_000);
    }, 90_000);

    const startAs = async (user: TestUser) => {
      const asked = new Date().toISOString();
      const created = await api().call('/api/v1/sandboxes', { method: 'POST', as: user, body: {} });
      expect(created.body).toMatchObject({ status: 'RUNNING' });
      const inRuntime = await api().runtime.runtime.getBySession(created.body.id);
      return { asked, startedAt: inRuntime?.createdAt as string, id: created.body.id as string };
    };

    it('answers a new sandbox of a user on the defaults with a warm one, and fills the pool again', async () => {
      const served = await startAs(onDefaults);
      expect(served.startedAt < served.asked).toBe(true);
      const listed = await api().call(`/api/v1/sandboxes?id=${served.id}`, { as: onDefaults });
      expect(listed.body[0]).toMatchObject({ status: 'RUNNING', session_api_key: expect.any(String) });
      await until(warmReady, (ready) => ready === 1, 'a warm sandbox', 30_000);
    }, 90_000);

    it('starts cold the sandbox of a user whose LLM endpoint the pool does not reach', async () => {
      const cold = await startAs(ownModel);
      expect(cold.startedAt >= cold.asked).toBe(true);
      expect(await warmReady()).toBe(1);
    }, 90_000);
  },
  { config: { sandbox_isolation: 'bubblewrap' } },
);
