export { DiskObjectStore } from './disk-object-store.ts';
export { MAX_KEY_BYTES, MAX_SEGMENT_BYTES, checkObjectKey, checkObjectPrefix } from './object-key.ts';
export * from './object-store.ts';
export { type OpenObjectStoreOptions, openObjectStore } from './open-object-store.ts';
export type { S3Options } from './s3-object-store.ts';
