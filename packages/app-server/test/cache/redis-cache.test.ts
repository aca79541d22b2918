import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { closedPort } from '../../../sources/test/support/closed-port.ts';
import { type Cache, CacheUnavailableError, type JsonValue, openCache } from '../../src/cache/index.ts';
import { RedisCache } from '../../src/cache/redis-cache.ts';
import { startTcpProxy } from '../support/tcp-proxy.ts';
import { cacheContract } from './contract.ts';
import { REDIS_URL, keysUnder, removeKeys, uniquePrefix, withAdmin } from './redis-support.ts';
import { waitUntil } from './wait.ts';

cacheContract('Redis cache', async () => {
  const keyPrefix = uniquePrefix();
  const warnings: string[] = [];
  const cache = await openCache({
    redisUrl: REDIS_URL,
    keyPrefix,
    logger: { warn: (_details, message) => warnings.push(message) },
  });
  return {
    cache,
    warnings,
    async dispose() {
      await cache.close();
      await removeKeys(keyPrefix);
    },
  };
});

describe('Redis cache between replicas', () => {
  const prefix = uniquePrefix();
  const caches: Cache[] = [];
  async function replica(keyPrefix = prefix): Promise<Cache> {
    const cache = await openCache({ redisUrl: REDIS_URL, keyPrefix });
    caches.push(cache);
    return cache;
  }
  afterEach(async () => {
    await Promise.all(caches.splice(0).map((cache) => cache.close()));
    await removeKeys(prefix);
  });

  it('two replicas see each other’s values, counters and messages', async () => {
    const [a, b] = [await replica(), await replica()];
    await a.set('revoked:session-1', true, { ttlMs: 60_000 });
    expect(await b.get('revoked:session-1')).toBe(true);
    expect(await b.delete('revoked:session-1')).toBe(true);
    expect(await a.get('revoked:session-1')).toBeUndefined();

    const window = { limit: 3, windowMs: 60_000 };
    expect((await a.countInWindow('user-1', window)).count).toBe(1);
    expect((await b.countInWindow('user-1', window)).count).toBe(2);
    expect((await a.countInWindow('user-1', window)).count).toBe(3);
    expect((await b.countInWindow('user-1', window)).allowed).toBe(false);

    const atA: JsonValue[] = [];
    const atB: JsonValue[] = [];
    await a.subscribe('start-tasks', (message) => atA.push(message));
    await b.subscribe('start-tasks', (message) => atB.push(message));
    await a.publish('start-tasks', { id: 'task-1', status: 'STARTING_RUNTIME' });
    await b.publish('start-tasks', { id: 'task-1', status: 'READY' });
    await waitUntil('both replicas got both messages', () => atA.length === 2 && atB.length === 2);
    expect(atA).toEqual(atB);
  });

  it('caches with different prefixes share nothing', async () => {
    const otherPrefix = uniquePrefix();
    const [a, b] = [await replica(), await replica(otherPrefix)];
    await a.set('k', 'a');
    expect(await b.get('k')).toBeUndefined();
    const atB: JsonValue[] = [];
    await b.subscribe('c', (message) => atB.push(message));
    await b.subscribe('sentinel', (message) => atB.push(message));
    await a.publish('c', 'from a');
    await b.publish('sentinel', 'from b');
    await waitUntil('b got its own message', () => atB.length > 0);
    expect(atB).toEqual(['from b']);
    await removeKeys(otherPrefix);
  });

  it('keeps every key under its prefix, and its values expire in Redis too', async () => {
    const cache = await replica();
    await cache.set('permanent', 1);
    await cache.set('temporary', 1, { ttlMs: 60_000 });
    await cache.countInWindow('hits', { limit: 1, windowMs: 60_000, mode: 'sliding' });
    const keys = await keysUnder(prefix);
    expect(keys.sort()).toEqual([`${prefix}value:permanent`, `${prefix}value:temporary`, `${prefix}window:hits`]);
    const ttls = await withAdmin((admin) => Promise.all(keys.sort().map((key) => admin.pttl(key))));
    expect(ttls[0]).toBe(-1);
    expect(ttls[1]).toBeGreaterThan(0);
    expect(ttls[2]).toBeGreaterThan(0);
  });

  it('connects only when used, and close ends both of its connections', async () => {
    const connectionName = `bosun-test-${process.pid}-${Date.now()}`;
    const clientsNamed = () =>
      withAdmin(async (admin) => {
        const list = (await admin.client('LIST')) as string;
        return list.split('\n').filter((line) => line.includes(`name=${connectionName} `)).length;
      });
    const cache = new RedisCache(Redis, { url: REDIS_URL, keyPrefix: prefix, connectionName });
    expect(await clientsNamed()).toBe(0);
    await cache.get('k');
    await cache.subscribe('c', () => {});
    expect(await clientsNamed()).toBe(2);
    await cache.close();
    await waitUntil('Redis saw both connections end', async () => (await clientsNamed()) === 0);
  });
});

describe('Redis cache when Redis cannot be reached', () => {
  it('fails each operation with a clear error naming the server but not its password, and closes', async () => {
    const port = await closedPort();
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    const warnings: string[] = [];
    const cache = await openCache({
      redisUrl: `redis://bosun:hunter2-secret@127.0.0.1:${port}/0`,
      keyPrefix: uniquePrefix(),
      logger: { warn: (details, message) => warnings.push(`${message} ${JSON.stringify(details)}`) },
    });
    try {
      for (const attempt of [
        () => cache.get('k'),
        () => cache.set('k', 1),
        () => cache.countInWindow('k', { limit: 1, windowMs: 1000 }),
        () => cache.publish('c', 1),
        () => cache.subscribe('c', () => {}),
        () => cache.ping(),
      ]) {
        const error = await attempt().then(
          () => undefined,
          (reason: unknown) => reason,
        );
        expect(error).toBeInstanceOf(CacheUnavailableError);
        expect((error as Error).message).toContain(`127.0.0.1:${port}`);
        expect((error as Error).message).toMatch(/unreachable: .*ECONNREFUSED/);
        expect((error as Error).message).not.toContain('hunter2');
      }
      expect(warnings.length).toBeGreaterThan(0);
      expect(warnings.join('\n')).not.toContain('hunter2');
    } finally {
      await cache.close();
      process.off('unhandledRejection', onUnhandled);
    }
    expect(unhandled).toEqual([]);
  });

  it('fails fast while Redis is cut off, and recovers values and subscriptions once it is back', async () => {
    const proxy = await startTcpProxy({
      host: new URL(REDIS_URL).hostname,
      port: Number(new URL(REDIS_URL).port || 6379),
    });
    const keyPrefix = uniquePrefix();
    const cache = await openCache({ redisUrl: `redis://127.0.0.1:${proxy.port}`, keyPrefix });
    const direct = await openCache({ redisUrl: REDIS_URL, keyPrefix });
    try {
      const received: JsonValue[] = [];
      await cache.subscribe('events', (message) => received.push(message));
      await cache.set('k', 'before');
      await proxy.cut();
      await waitUntil('the outage is noticed', async () => {
        const error = await cache.get('k').then(
          () => undefined,
          (reason: unknown) => reason,
        );
        return error instanceof CacheUnavailableError;
      });
      const startedAt = Date.now();
      await expect(cache.ping()).rejects.toThrow(/is unreachable/);
      expect(Date.now() - startedAt).toBeLessThan(250);
      await proxy.restore();
      await waitUntil('the cache works again', async () => (await cache.get('k').catch(() => undefined)) === 'before');
      await waitUntil('the subscription is back', async () => {
        await direct.publish('events', 'after');
        return received.includes('after');
      });
    } finally {
      await Promise.all([cache.close(), direct.close()]);
      await proxy.close();
      await removeKeys(keyPrefix);
    }
  });

  it('refuses a URL that is not redis:// or rediss://', async () => {
    await expect(openCache({ redisUrl: 'http://127.0.0.1:6379' })).rejects.toThrow(/redis:\/\//);
  });
});
