export * from './cache.ts';
export { MemoryCache, type MemoryCacheOptions } from './memory-cache.ts';
export { DEFAULT_KEY_PREFIX, type OpenCacheOptions, openCache } from './open-cache.ts';
