import { join } from 'node:path';
import { DiskObjectStore } from './disk-object-store.ts';
import type { ObjectStore } from './object-store.ts';
import type { S3Options } from './s3-object-store.ts';

export interface OpenObjectStoreOptions {
  /** The data directory: without S3, objects are kept in its `objects` folder. */
  dataDir: string;
  /** An S3 bucket (`BOSUN_S3_*`) to keep objects in instead. */
  s3?: S3Options;
}

/**
 * The object store the configuration names. Nothing is reached here: check it with `ping()`. The AWS SDK is
 * loaded only when S3 is configured.
 */
export async function openObjectStore(options: OpenObjectStoreOptions): Promise<ObjectStore> {
  if (!options.s3) return new DiskObjectStore(join(options.dataDir, 'objects'));
  const { S3ObjectStore } = await import('./s3-object-store.ts');
  return new S3ObjectStore(options.s3);
}
