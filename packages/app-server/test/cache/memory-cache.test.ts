import { describe, expect, it } from 'vitest';
import { MemoryCache, openCache } from '../../src/cache/index.ts';
import { cacheContract } from './contract.ts';

cacheContract('in-process cache', async () => {
  const warnings: string[] = [];
  const cache = await openCache({ logger: { warn: (_details, message) => warnings.push(message) } });
  return { cache, warnings, dispose: () => cache.close() };
});

describe('in-process cache', () => {
  it('is what openCache gives without a Redis URL', async () => {
    const cache = await openCache();
    expect(cache).toBeInstanceOf(MemoryCache);
    await cache.close();
  });

  it('sweeps out expired values and windows nobody reads again, without a timer', async () => {
    let now = 1_000_000;
    const cache = new MemoryCache({ now: () => now });
    for (let i = 0; i < 100; i++) await cache.set(`session-${i}`, true, { ttlMs: 1_000 });
    for (let i = 0; i < 100; i++)
      await cache.countInWindow(`user-${i}`, { limit: 5, windowMs: 1_000, mode: 'sliding' });
    for (let i = 0; i < 100; i++) await cache.countInWindow(`ip-${i}`, { limit: 5, windowMs: 1_000 });
    await cache.set('permanent', true);
    expect(cache.size).toBe(301);
    now += 5_000;
    await cache.set('trigger', true);
    expect(cache.size).toBe(2);
    await cache.close();
  });

  it('keeps a sliding window whose last hit is still inside it', async () => {
    let now = 0;
    const cache = new MemoryCache({ now: () => now });
    const window = { limit: 2, windowMs: 1_000, mode: 'sliding' as const };
    await cache.countInWindow('user', window);
    now = 900;
    await cache.countInWindow('user', window);
    now = 1_500;
    await cache.set('trigger', true);
    expect(await cache.countInWindow('user', window)).toEqual({ allowed: true, count: 2, retryAfterMs: 0 });
    expect(await cache.countInWindow('user', window)).toEqual({ allowed: false, count: 2, retryAfterMs: 400 });
    await cache.close();
  });
});
