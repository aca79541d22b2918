import { afterEach, describe, expect, it } from 'vitest';
import { type Cache, openCache } from '../../src/cache/index.ts';
import { RateLimiter } from '../../src/rate-limit/index.ts';
import { REDIS_URL, removeKeys, uniquePrefix } from '../cache/redis-support.ts';
import { waitUntil } from '../cache/wait.ts';

const prefix = uniquePrefix();
const backends: Record<string, () => Promise<Cache>> = {
  'in-process': () => openCache(),
  Redis: () => openCache({ redisUrl: REDIS_URL, keyPrefix: prefix }),
};

for (const [backend, open] of Object.entries(backends)) {
  describe(`RateLimiter on the ${backend} cache`, () => {
    const caches: Cache[] = [];
    async function limiter(mode?: 'fixed' | 'sliding'): Promise<RateLimiter> {
      const cache = await open();
      caches.push(cache);
      return new RateLimiter(cache, { mode });
    }
    afterEach(async () => {
      await Promise.all(caches.splice(0).map((cache) => cache.close()));
      await removeKeys(prefix);
    });

    for (const mode of ['sliding', 'fixed'] as const) {
      it(`${mode}: allows the limit with what remains, then refuses with a Retry-After in whole seconds`, async () => {
        const limits = await limiter(mode);
        const rule = { limit: 3, windowMs: 60_000 };
        const decisions = [];
        for (let i = 0; i < 3; i++) decisions.push(await limits.hit('conversations.create', 'user-1', rule));
        expect(decisions).toEqual([2, 1, 0].map((remaining) => ({ allowed: true, retryAfterSeconds: 0, remaining })));
        const refused = await limits.hit('conversations.create', 'user-1', rule);
        expect(refused.allowed).toBe(false);
        expect(refused.remaining).toBe(0);
        expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(59);
        expect(refused.retryAfterSeconds).toBeLessThanOrEqual(60);
      });
    }

    it('a refusal shorter than a second still asks for one second, and the limit lifts after it', async () => {
      const limits = await limiter();
      const rule = { limit: 1, windowMs: 150 };
      expect((await limits.hit('s', 'k', rule)).allowed).toBe(true);
      expect(await limits.hit('s', 'k', rule)).toEqual({ allowed: false, retryAfterSeconds: 1, remaining: 0 });
      await waitUntil('the limit lifted', async () => (await limits.hit('s', 'k', rule)).allowed);
    });

    it('counts each scope and key apart, however their names are spelled', async () => {
      const limits = await limiter();
      const rule = { limit: 1, windowMs: 60_000 };
      expect((await limits.hit('a:b', 'c', rule)).allowed).toBe(true);
      expect((await limits.hit('a', 'b:c', rule)).allowed).toBe(true);
      expect((await limits.hit('a:b', 'd', rule)).allowed).toBe(true);
      expect((await limits.hit('other', 'c', rule)).allowed).toBe(true);
      expect((await limits.hit('a:b', 'c', rule)).allowed).toBe(false);
    });

    it('refuses an empty scope or key and a rule that is not positive integers', async () => {
      const limits = await limiter();
      await expect(limits.hit('', 'k', { limit: 1, windowMs: 1 })).rejects.toThrow(TypeError);
      await expect(limits.hit('s', '', { limit: 1, windowMs: 1 })).rejects.toThrow(TypeError);
      await expect(limits.hit('s', 'k', { limit: 0, windowMs: 1000 })).rejects.toThrow(RangeError);
      await expect(limits.hit('s', 'k', { limit: 1, windowMs: -1 })).rejects.toThrow(RangeError);
    });
  });
}

describe('RateLimiter between replicas', () => {
  it('two replicas on one Redis enforce one limit together', async () => {
    const keyPrefix = uniquePrefix();
    const [a, b] = await Promise.all([1, 2].map(() => openCache({ redisUrl: REDIS_URL, keyPrefix })));
    try {
      const [onA, onB] = [new RateLimiter(a as Cache), new RateLimiter(b as Cache)];
      const rule = { limit: 4, windowMs: 60_000 };
      const decisions = await Promise.all(
        Array.from({ length: 10 }, (_, i) => (i % 2 ? onA : onB).hit('settings.update', 'user-7', rule)),
      );
      expect(decisions.filter((decision) => decision.allowed)).toHaveLength(4);
      expect((await onA.hit('settings.update', 'user-7', rule)).allowed).toBe(false);
      expect((await onB.hit('settings.update', 'user-8', rule)).allowed).toBe(true);
    } finally {
      await Promise.all([a, b].map((cache) => cache?.close()));
      await removeKeys(keyPrefix);
    }
  });
});
