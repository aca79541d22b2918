/** A JSON value as the cache stores it: what `JSON.parse` can return. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export interface SetOptions {
  /** The value expires after this many milliseconds (a positive integer); without it, it stays until deleted. */
  ttlMs?: number;
  /** Write only if the key holds no value; `set` then answers whether it wrote (a claim or a lock). */
  ifAbsent?: boolean;
}

export interface WindowOptions {
  /** Hits allowed in one window (a positive integer). */
  limit: number;
  /** The window's length in milliseconds (a positive integer). */
  windowMs: number;
  /**
   * `fixed` (the default): windows start at the first hit and the count resets when one ends; cheap, but allows up
   * to twice the limit across a window boundary. `sliding`: each hit counts for exactly `windowMs` after it.
   */
  mode?: 'fixed' | 'sliding';
}

export interface WindowCount {
  /** Whether this hit was within the limit; a refused hit is not counted. */
  allowed: boolean;
  /** The hits counted in the current window, this one included when allowed (never above the limit). */
  count: number;
  /** When refused: milliseconds until a hit would be allowed again (at least 1). When allowed: 0. */
  retryAfterMs: number;
}

export type MessageHandler = (message: JsonValue) => void;

/** Ends a subscription; the handler gets no message published after it resolves. */
export type Unsubscribe = () => Promise<void>;

/**
 * What app replicas share: values with optional expiry, counters for rate limits, and messages between
 * replicas. Keys and channels are names of the caller's choosing; an implementation may prefix them.
 * Values are stored as JSON: what `get` returns is a copy, never the object that was `set`.
 */
export interface Cache {
  get(key: string): Promise<JsonValue | undefined>;
  /** Answers whether the value was written (always, unless `ifAbsent` found a value). */
  set(key: string, value: JsonValue, options?: SetOptions): Promise<boolean>;
  /** Answers whether there was a value to delete. */
  delete(key: string): Promise<boolean>;
  /** Counts a hit against `key`'s window, atomically across every replica using this cache. */
  countInWindow(key: string, options: WindowOptions): Promise<WindowCount>;
  /** Delivers `message` to every subscriber of `channel`, in this replica and the others. */
  publish(channel: string, message: JsonValue): Promise<void>;
  /** Resolves once the subscription is in place: every message published after that reaches `handler`. */
  subscribe(channel: string, handler: MessageHandler): Promise<Unsubscribe>;
  /** Resolves if the cache answers (for `/ready`), rejects with a `CacheUnavailableError` otherwise. */
  ping(): Promise<void>;
  /** Ends subscriptions, connections and timers; the cache cannot be used afterwards. */
  close(): Promise<void>;
}

/** The cache's backing service cannot be reached or answered with an error. */
export class CacheUnavailableError extends Error {
  override readonly name = 'CacheUnavailableError';
}

/** An operation on a cache that was closed. */
export class CacheClosedError extends Error {
  override readonly name = 'CacheClosedError';
  constructor() {
    super('The cache is closed');
  }
}

/** Where a cache reports what goes wrong away from any caller (a failing subscriber, a lost connection). */
export interface CacheLogger {
  warn(details: object, message: string): void;
}
