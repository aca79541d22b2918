import { describe, expect, it } from 'vitest';
import { type Cache, CacheClosedError, type JsonValue } from '../../src/cache/index.ts';
import { openedPerTest } from '../support/per-test.ts';
import { waitUntil } from './wait.ts';

export interface CacheUnderTest {
  cache: Cache;
  /** Warnings the cache logged. */
  warnings: string[];
  /** Closes the cache and removes what it stored. */
  dispose(): Promise<void>;
}

/** What every Cache must do, whatever keeps the values. */
export function cacheContract(name: string, open: () => Promise<CacheUnderTest>): void {
  describe(`${name}: the Cache contract`, () => {
    const fresh = openedPerTest(open, (underTest) => underTest.dispose());

    describe('values', () => {
      it('keeps JSON values of every kind and answers undefined for a key never set', async () => {
        const { cache } = await fresh();
        const values: JsonValue[] = ['text', 0, -1.5, true, false, null, [1, 'two', [3]], { a: { b: [null, 'é'] } }];
        for (const [index, value] of values.entries()) await cache.set(`k${index}`, value);
        for (const [index, value] of values.entries()) expect(await cache.get(`k${index}`)).toEqual(value);
        expect(await cache.get('never-set')).toBeUndefined();
      });

      it('stores a copy: changing the object after set, or the one get returned, changes nothing stored', async () => {
        const { cache } = await fresh();
        const value = { list: [1] };
        await cache.set('copy', value);
        value.list.push(2);
        const read = (await cache.get('copy')) as { list: number[] };
        read.list.push(3);
        expect(await cache.get('copy')).toEqual({ list: [1] });
      });

      it('overwrites, and delete answers whether there was a value', async () => {
        const { cache } = await fresh();
        expect(await cache.set('k', 1)).toBe(true);
        expect(await cache.set('k', 2)).toBe(true);
        expect(await cache.get('k')).toBe(2);
        expect(await cache.delete('k')).toBe(true);
        expect(await cache.get('k')).toBeUndefined();
        expect(await cache.delete('k')).toBe(false);
      });

      it('forgets a value once its TTL has passed', async () => {
        const { cache } = await fresh();
        await cache.set('short', 'lived', { ttlMs: 60 });
        expect(await cache.get('short')).toBe('lived');
        await waitUntil('the value expired', async () => (await cache.get('short')) === undefined);
        expect(await cache.delete('short')).toBe(false);
      });

      it('a set without TTL makes a value that had one permanent', async () => {
        const { cache } = await fresh();
        await cache.set('kept', 'first', { ttlMs: 60 });
        await cache.set('kept', 'second');
        await cache.set('witness', true, { ttlMs: 60 });
        await waitUntil('the witness expired', async () => (await cache.get('witness')) === undefined);
        expect(await cache.get('kept')).toBe('second');
      });

      it('ifAbsent writes only where no value is, and again once the value expired', async () => {
        const { cache } = await fresh();
        expect(await cache.set('claim', 'replica-a', { ifAbsent: true, ttlMs: 60 })).toBe(true);
        expect(await cache.set('claim', 'replica-b', { ifAbsent: true })).toBe(false);
        expect(await cache.get('claim')).toBe('replica-a');
        await waitUntil('the claim expired', async () => (await cache.get('claim')) === undefined);
        expect(await cache.set('claim', 'replica-b', { ifAbsent: true })).toBe(true);
        expect(await cache.get('claim')).toBe('replica-b');
      });

      it('one of many concurrent ifAbsent writes wins', async () => {
        const { cache } = await fresh();
        const wins = await Promise.all(Array.from({ length: 20 }, (_, i) => cache.set('race', i, { ifAbsent: true })));
        expect(wins.filter(Boolean)).toHaveLength(1);
        expect(await cache.get('race')).toBe(wins.indexOf(true));
      });

      it('refuses a bad TTL, a value JSON cannot carry and an empty key, storing nothing', async () => {
        const { cache } = await fresh();
        for (const ttlMs of [0, -5, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
          await expect(cache.set('bad', 1, { ttlMs })).rejects.toThrow(RangeError);
        }
        await expect(cache.set('bad', undefined as unknown as JsonValue)).rejects.toThrow(TypeError);
        await expect(cache.set('bad', (() => 1) as unknown as JsonValue)).rejects.toThrow(TypeError);
        await expect(cache.set('', 1)).rejects.toThrow(TypeError);
        expect(await cache.get('bad')).toBeUndefined();
      });
    });

    describe('window counters', () => {
      for (const mode of ['fixed', 'sliding'] as const) {
        it(`${mode}: allows the limit, refuses the next hit with a retry time, and allows again after it`, async () => {
          const { cache } = await fresh();
          const window = { limit: 3, windowMs: 300, mode };
          const counts = [];
          for (let i = 0; i < 3; i++) counts.push(await cache.countInWindow('hits', window));
          expect(counts).toEqual([1, 2, 3].map((count) => ({ allowed: true, count, retryAfterMs: 0 })));
          const refused = await cache.countInWindow('hits', window);
          expect(refused).toMatchObject({ allowed: false, count: 3 });
          expect(refused.retryAfterMs).toBeGreaterThan(0);
          expect(refused.retryAfterMs).toBeLessThanOrEqual(300);
          expect(await cache.countInWindow('other-key', window)).toEqual({ allowed: true, count: 1, retryAfterMs: 0 });
          const refusedAt = Date.now();
          let again = refused;
          await waitUntil('a hit is allowed again', async () => {
            again = await cache.countInWindow('hits', window);
            return again.allowed;
          });
          // Redis's clock and ours may differ by a little; the wait cannot be much shorter than announced.
          expect(Date.now() - refusedAt).toBeGreaterThanOrEqual(refused.retryAfterMs - 25);
          // A fixed window starts afresh; a sliding one freed the first hit's place only.
          if (mode === 'fixed') expect(again.count).toBe(1);
        });

        it(`${mode}: concurrent hits never exceed the limit`, async () => {
          const { cache } = await fresh();
          const window = { limit: 10, windowMs: 60_000, mode };
          const results = await Promise.all(Array.from({ length: 40 }, () => cache.countInWindow('burst', window)));
          expect(results.filter((result) => result.allowed)).toHaveLength(10);
          expect(results.filter((result) => !result.allowed).every((result) => result.count === 10)).toBe(true);
        });
      }

      it('sliding: a hit frees its place one window after it was made, not at a window boundary', async () => {
        const { cache } = await fresh();
        const window = { limit: 2, windowMs: 400, mode: 'sliding' as const };
        await cache.countInWindow('slide', window);
        const firstAt = Date.now();
        await waitUntil('half the window passed', () => Date.now() - firstAt >= 200);
        await cache.countInWindow('slide', window);
        const refused = await cache.countInWindow('slide', window);
        expect(refused.allowed).toBe(false);
        expect(refused.retryAfterMs).toBeLessThanOrEqual(400 - 200 + 25);
        await waitUntil(
          'the first hit left the window',
          async () => (await cache.countInWindow('slide', window)).allowed,
        );
        expect((await cache.countInWindow('slide', window)).allowed).toBe(false);
      });

      it('refuses a bad limit, window or mode', async () => {
        const { cache } = await fresh();
        await expect(cache.countInWindow('k', { limit: 0, windowMs: 10 })).rejects.toThrow(RangeError);
        await expect(cache.countInWindow('k', { limit: 1, windowMs: 1.5 })).rejects.toThrow(RangeError);
        const mode = 'leaky' as 'fixed';
        await expect(cache.countInWindow('k', { limit: 1, windowMs: 10, mode })).rejects.toThrow(RangeError);
      });
    });

    describe('messages', () => {
      it('delivers to every subscriber of the channel, in order, and to no other channel', async () => {
        const { cache } = await fresh();
        const first: JsonValue[] = [];
        const second: JsonValue[] = [];
        const elsewhere: JsonValue[] = [];
        await cache.subscribe('progress', (message) => first.push(message));
        await cache.subscribe('progress', (message) => second.push(message));
        await cache.subscribe('other', (message) => elsewhere.push(message));
        const sent = Array.from({ length: 20 }, (_, step) => ({ task: 't1', step }));
        for (const message of sent) await cache.publish('progress', message);
        await waitUntil('both subscribers got every message', () => first.length === 20 && second.length === 20);
        expect(first).toEqual(sent);
        expect(second).toEqual(sent);
        expect(elsewhere).toEqual([]);
      });

      it('delivers nothing to a handler after its unsubscribe resolved', async () => {
        const { cache } = await fresh();
        const gone: JsonValue[] = [];
        const staying: JsonValue[] = [];
        const unsubscribe = await cache.subscribe('news', (message) => gone.push(message));
        await cache.subscribe('news', (message) => staying.push(message));
        await cache.publish('news', 'before');
        await waitUntil('both got the first message', () => gone.length === 1 && staying.length === 1);
        await unsubscribe();
        await unsubscribe();
        await cache.publish('news', 'after');
        await waitUntil('the staying subscriber got the second message', () => staying.length === 2);
        expect(gone).toEqual(['before']);
      });

      it('a channel whose last subscriber left can be subscribed again', async () => {
        const { cache } = await fresh();
        const unsubscribe = await cache.subscribe('again', () => {});
        await unsubscribe();
        const received: JsonValue[] = [];
        await cache.subscribe('again', (message) => received.push(message));
        await cache.publish('again', 42);
        await waitUntil('the new subscriber got the message', () => received.length === 1);
        expect(received).toEqual([42]);
      });

      it('a failing handler is logged and keeps neither the other handlers nor the publisher from working', async () => {
        const underTest = await fresh();
        const received: JsonValue[] = [];
        await underTest.cache.subscribe('fragile', () => {
          throw new Error('handler bug');
        });
        await underTest.cache.subscribe('fragile', (message) => received.push(message));
        await underTest.cache.publish('fragile', 'one');
        await underTest.cache.publish('fragile', 'two');
        await waitUntil('the healthy handler got both', () => received.length === 2);
        await waitUntil('the failures were logged', () => underTest.warnings.length === 2);
        expect(underTest.warnings[0]).toMatch(/handler failed/);
      });
    });

    it('answers ping, and once closed refuses every operation', async () => {
      const { cache } = await fresh();
      await cache.ping();
      await cache.close();
      await cache.close();
      await expect(cache.get('k')).rejects.toThrow(CacheClosedError);
      await expect(cache.set('k', 1)).rejects.toThrow(CacheClosedError);
      await expect(cache.countInWindow('k', { limit: 1, windowMs: 10 })).rejects.toThrow(CacheClosedError);
      await expect(cache.publish('c', 1)).rejects.toThrow(CacheClosedError);
      await expect(cache.subscribe('c', () => {})).rejects.toThrow(CacheClosedError);
      await expect(cache.ping()).rejects.toThrow(CacheClosedError);
    });
  });
}
