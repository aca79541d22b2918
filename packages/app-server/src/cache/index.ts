export {
  type Cache,
  CacheClosedError,
  type CacheLogger,
  CacheUnavailableError,
  type JsonValue,
  type MessageHandler,
  type SetOptions,
  type Unsubscribe,
  type WindowCount,
  type WindowOptions,
} from './cache.ts';
export { MemoryCache, type MemoryCacheOptions } from './memory-cache.ts';
export { DEFAULT_KEY_PREFIX, type OpenCacheOptions, openCache } from './open-cache.ts';
