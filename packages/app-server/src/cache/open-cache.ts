import type { Cache, CacheLogger } from './cache.ts';
import { MemoryCache } from './memory-cache.ts';

export interface OpenCacheOptions {
  /** Redis to share with other replicas (`BOSUN_REDIS_URL`); without it, the cache lives in this process. */
  redisUrl?: string;
  /** Put before every Redis key and channel; `bosun:` unless given. */
  keyPrefix?: string;
  logger?: CacheLogger;
}

export const DEFAULT_KEY_PREFIX = 'bosun:';

/**
 * The cache the configuration names. Nothing connects here: Redis is reached on first use (check it with
 * `ping()`), and ioredis is loaded only when Redis is configured.
 */
export async function openCache(options: OpenCacheOptions = {}): Promise<Cache> {
  if (!options.redisUrl) return new MemoryCache({ logger: options.logger });
  checkRedisUrl(options.redisUrl);
  const [{ Redis }, { RedisCache }] = await Promise.all([import('ioredis'), import('./redis-cache.ts')]);
  return new RedisCache(Redis, {
    url: options.redisUrl,
    keyPrefix: options.keyPrefix ?? DEFAULT_KEY_PREFIX,
    logger: options.logger,
  });
}

function checkRedisUrl(url: string): void {
  let protocol: string | undefined;
  try {
    protocol = new URL(url).protocol;
  } catch {}
  if (protocol !== 'redis:' && protocol !== 'rediss:') {
    throw new RangeError('The Redis URL must be redis://host:port or rediss://host:port');
  }
}
