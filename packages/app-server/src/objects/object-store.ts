import type { Readable } from 'node:stream';

export type ObjectBody = Buffer | string | Readable;

export interface PutOptions {
  /** `application/octet-stream` unless given. */
  contentType?: string;
}

export interface ObjectHead {
  /** In bytes. */
  size: number;
  contentType?: string;
}

/**
 * Where event and workspace archives are kept. A key is a `/`-separated path of non-empty segments (no `.` or
 * `..`, at most 255 bytes each; no leading `/`, no control characters or `\`; at most 1,024 bytes in all); a bad
 * key is an `ObjectKeyError`.
 * A write is all or nothing: a reader sees the old object or the new one, never a part, and a failed write
 * leaves the old one in place.
 */
export interface ObjectStore {
  put(key: string, body: ObjectBody, options?: PutOptions): Promise<void>;
  get(key: string): Promise<Buffer | undefined>;
  getStream(key: string): Promise<Readable | undefined>;
  head(key: string): Promise<ObjectHead | undefined>;
  /** Every key that starts with `prefix`, in byte order, however many there are. */
  list(prefix: string): Promise<string[]>;
  /** Deleting a key that has no object is not an error. */
  delete(key: string): Promise<void>;
  /** Deletes every object whose key starts with `prefix` (which must not be empty); answers how many. */
  deletePrefix(prefix: string): Promise<number>;
  /** Resolves if the store can be used (for `/ready`), rejects with an `ObjectStoreUnavailableError` otherwise. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export const DEFAULT_CONTENT_TYPE = 'application/octet-stream';

/** A key or prefix that is not allowed, or (on disk) one that collides with an existing key's folder. */
export class ObjectKeyError extends Error {
  override readonly name = 'ObjectKeyError';
}

/** The store's backing service cannot be reached, or refused the request. */
export class ObjectStoreUnavailableError extends Error {
  override readonly name = 'ObjectStoreUnavailableError';
}

export class ObjectStoreClosedError extends Error {
  override readonly name = 'ObjectStoreClosedError';
  constructor() {
    super('The object store is closed');
  }
}
