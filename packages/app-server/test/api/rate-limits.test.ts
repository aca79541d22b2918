import { expect, it } from 'vitest';
import { describeApi } from './harness.ts';

const WINDOW_MS = 60 * 60_000;

describeApi(
  'rate limits',
  (api) => {
    it('answer 429 with Retry-After once a user has made too many keys, per user', async () => {
      const [user, other] = await api().users(2);
      const make = (as: typeof user) => api().call('/api/v1/keys', { method: 'POST', as, body: {} });
      expect((await make(user)).status).toBe(201);
      expect((await make(user)).status).toBe(201);
      const refused = await make(user);
      expect(refused.status).toBe(429);
      expect(typeof refused.body.detail).toBe('string');
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(WINDOW_MS / 1000);
      expect((await api().call('/api/v1/keys', { as: user })).body).toHaveLength(3);
      expect((await make(other)).status).toBe(201);
    });

    it('do not count malformed requests', async () => {
      const user = await api().user();
      for (let i = 0; i < 5; i += 1) {
        const answer = await api().call('/api/v1/keys', { method: 'POST', as: user, body: { name: 1 } });
        expect(answer.status).toBe(422);
      }
      expect((await api().call('/api/v1/keys', { method: 'POST', as: user, body: {} })).status).toBe(201);
    });

    it('limit secret writes', async () => {
      const user = await api().user();
      const write = (name: string) =>
        api().call('/api/v1/secrets', { method: 'POST', as: user, body: { name, value: 'v' } });
      for (const name of ['A', 'B', 'C']) expect((await write(name)).status).toBe(201);
      const refused = await write('D');
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
      const search = await api().call('/api/v1/secrets/search', { as: user });
      expect(search.body.items.map((item: { name: string }) => item.name)).toEqual(['A', 'B', 'C']);
    });

    it('limit LLM profile saves (each seals a key), counted with the secret writes', async () => {
      const user = await api().user();
      const secret = await api().call('/api/v1/secrets', { method: 'POST', as: user, body: { name: 'S', value: 'v' } });
      expect(secret.status).toBe(201);
      const save = (name: string) =>
        api().call(`/api/v1/settings/profiles/${name}`, { method: 'POST', as: user, body: { llm: { model: 'm' } } });
      for (const name of ['a', 'b']) expect((await save(name)).status).toBe(201);
      const refused = await save('c');
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
      const listed = await api().call('/api/v1/settings/profiles', { as: user });
      expect(listed.body.profiles.map((profile: { name: string }) => profile.name)).toEqual(['a', 'b']);
    });

    it('limit sign-in attempts per client address', async () => {
      const statuses = [];
      for (let i = 0; i < 4; i += 1) statuses.push((await api().call(`/api/v1/auth/sign-in?token=guess${i}`)).status);
      expect(statuses).toEqual([401, 401, 401, 429]);
      // A person who opened a link in a browser gets the sign-in page saying when to try again, not JSON.
      const browser = await api().call('/api/v1/auth/sign-in?token=guess', {
        headers: { accept: 'text/html,application/xhtml+xml' },
      });
      expect(browser.status).toBe(303);
      expect(browser.headers.get('location')).toMatch(/^\/sign-in\?sign_in=limited&retry_after=\d+$/);
      expect(browser.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(browser.headers.get('set-cookie')).toBeNull();
    });
  },
  {
    rateLimits: {
      api_key_create: { limit: 2, windowMs: WINDOW_MS },
      secret_write: { limit: 3, windowMs: WINDOW_MS },
      sign_in: { limit: 3, windowMs: WINDOW_MS },
    },
  },
);
