import { AppServerClient, BosunApiError } from '@bosun/client';
import { SettingsUpdate } from '@bosun/protocol';
import { expect, it } from 'vitest';
import { MODEL_CATALOG } from '../../src/catalog/models.ts';
import { describeApi } from './harness.ts';

const MODELS = '/api/v1/config/models/search';
const PROVIDERS = '/api/v1/config/providers/search';
const CATALOG_SIZE = MODEL_CATALOG.reduce((count, provider) => count + provider.models.length, 0);

describeApi(
  'the model and provider catalog',
  (api) => {
    const get = async (path: string) => {
      const answer = await api().call(path, { as: await api().user() });
      expect(answer.status, answer.text).toBe(200);
      return answer.body;
    };
    /** Every item of a search, page by page (`limit` a page), and how many pages it took. */
    const all = async (path: string, limit: number) => {
      const items = [];
      let pages = 0;
      let next: string | null = null;
      do {
        const page = await get(
          `${path}${path.includes('?') ? '&' : '?'}limit=${limit}${next ? `&page_id=${next}` : ''}`,
        );
        expect(page.items.length).toBeLessThanOrEqual(limit);
        items.push(...page.items);
        next = page.next_page_id;
        pages += 1;
      } while (next);
      return { items, pages };
    };

    it('lists the curated models and the instance’s default model, 50 a page unless told', async () => {
      const first = await get(MODELS);
      expect(first.items).toHaveLength(Math.min(50, CATALOG_SIZE + 1));
      expect(first.items).toContainEqual({
        provider: 'anthropic',
        name: 'claude-sonnet-4-5',
        verified: true,
        hidden: false,
        canonical: null,
      });
      const { items, pages } = await all(MODELS, 7);
      expect(items).toHaveLength(CATALOG_SIZE + 1);
      expect(pages).toBe(Math.ceil((CATALOG_SIZE + 1) / 7));
      expect(items.at(-1)).toEqual({
        provider: 'house',
        name: 'model-7',
        verified: false,
        hidden: false,
        canonical: null,
      });
      expect(new Set(items.map((m: { provider: string; name: string }) => `${m.provider}/${m.name}`)).size).toBe(
        items.length,
      );
    });

    it('filters by name (any case), provider and verified status, together', async () => {
      const sonnets = (await get(`${MODELS}?query=SONNET&limit=100`)).items;
      expect(sonnets.length).toBeGreaterThan(1);
      for (const model of sonnets) expect(`${model.provider}/${model.name}`.toLowerCase()).toContain('sonnet');
      const openrouter = (await get(`${MODELS}?query=sonnet&provider__eq=openrouter`)).items;
      expect(openrouter).toEqual([
        expect.objectContaining({ provider: 'openrouter', name: 'anthropic/claude-sonnet-4.5' }),
      ]);
      const verified = (await get(`${MODELS}?verified__eq=true&limit=100`)).items;
      expect(new Set(verified.map((model: { provider: string }) => model.provider))).toEqual(
        new Set(['anthropic', 'openai']),
      );
      const others = (await get(`${MODELS}?verified__eq=false&limit=100`)).items;
      expect(others.length + verified.length).toBe(CATALOG_SIZE + 1);
      expect(others.every((model: { verified: boolean }) => !model.verified)).toBe(true);
      expect((await get(`${MODELS}?provider__eq=Anthropic`)).items).toEqual([]);
      expect((await get(`${MODELS}?provider__eq=house`)).items).toEqual([expect.objectContaining({ name: 'model-7' })]);
    });

    it('lists the providers (the default model’s too), filtered and paged', async () => {
      const { items } = await all(PROVIDERS, 2);
      expect(items.map((provider: { name: string }) => provider.name)).toEqual([
        ...MODEL_CATALOG.map((provider) => provider.name),
        'house',
      ]);
      expect((await get(`${PROVIDERS}?verified__eq=true`)).items).toEqual([
        { name: 'anthropic', verified: true },
        { name: 'openai', verified: true },
      ]);
      // `anthropic` has `ro` too, but is verified.
      expect((await get(`${PROVIDERS}?query=RO&verified__eq=false`)).items).toEqual([
        { name: 'openrouter', verified: false },
        { name: 'litellm_proxy', verified: false },
      ]);
    });

    it.each([MODELS, PROVIDERS])('%s: a bad limit, filter or page id is a 422 at its place', async (path) => {
      const user = await api().user();
      for (const [query, loc] of [
        ['limit=0', 'limit'],
        ['limit=101', 'limit'],
        ['limit=ten', 'limit'],
        ['verified__eq=maybe', 'verified__eq'],
        ['page_id=nope', 'page_id'],
        ['page_id=999', 'page_id'],
      ]) {
        const answer = await api().call(`${path}?${query}`, { as: user });
        expect(answer.status, `${query}: ${answer.text}`).toBe(422);
        expect(answer.body.detail[0].loc, query).toEqual(['query', loc]);
      }
      expect((await api().call(path)).status).toBe(401);
    });

    it('is read by the typed client', async () => {
      const user = await api().user();
      const client = new AppServerClient({ baseUrl: api().url, apiKey: user.key });
      expect(await client.get('/api/v1/settings/agent-schema')).toEqual(
        JSON.parse(JSON.stringify(SettingsUpdate.properties.agent_settings_diff)),
      );
      expect((await client.get('/api/v1/settings/conversation-schema')).type).toBe('object');
      const models = await client.get('/api/v1/config/models/search', {
        query: { provider__eq: 'house', verified__eq: false },
      });
      expect(models.items.map((model) => model.name)).toEqual(['model-7']);
      expect((await client.get('/api/v1/config/providers/search', { query: { query: 'anthropic' } })).items).toEqual([
        { name: 'anthropic', verified: true },
      ]);
      expect(await client.get('/api/v1/skills/search', { query: { limit: 5 } })).toEqual({
        items: [],
        next_page_id: null,
      });
      const refused = await client.get('/api/v1/users/git-info').catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(BosunApiError);
      expect((refused as BosunApiError).status).toBe(403);
      await client.post('/api/v1/secrets/git-providers', {
        body: { provider_tokens: { github: { token: 'ghp_client' } } },
      });
      expect(await client.get('/api/v1/users/git-info')).toMatchObject({
        provider: 'github',
        login: null,
        token_set: true,
      });
    });
  },
  { config: { llm_model: 'house/model-7' } },
);
