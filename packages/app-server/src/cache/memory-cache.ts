import {
  type Cache,
  CacheClosedError,
  type CacheLogger,
  type JsonValue,
  type MessageHandler,
  type SetOptions,
  type Unsubscribe,
  type WindowCount,
  type WindowOptions,
} from './cache.ts';
import { checkKey, checkSetOptions, checkWindowOptions, decodeValue, encodeValue } from './values.ts';

export interface MemoryCacheOptions {
  logger?: CacheLogger;
  /** The clock, in milliseconds; tests replace it to move time. */
  now?: () => number;
}

interface StoredValue {
  text: string;
  expiresAt: number;
}

/** The hits of one window: the time of each (sliding), or a count (fixed); gone once `expiresAt` has passed. */
type StoredWindow =
  | { mode: 'sliding'; hits: number[]; expiresAt: number }
  | { mode: 'fixed'; count: number; expiresAt: number };

interface Subscription {
  handler: MessageHandler;
}

/** How often, at most, writes sweep out expired entries nobody read (there is no timer to do it). */
const SWEEP_INTERVAL_MS = 1_000;

/** The cache of a single replica: everything in this process, nothing shared. */
export class MemoryCache implements Cache {
  private readonly values = new Map<string, StoredValue>();
  private readonly windows = new Map<string, StoredWindow>();
  private readonly channels = new Map<string, Set<Subscription>>();
  private readonly now: () => number;
  private nextSweepAt = 0;
  private closed = false;

  constructor(private readonly options: MemoryCacheOptions = {}) {
    this.now = options.now ?? Date.now;
  }

  async get(key: string): Promise<JsonValue | undefined> {
    this.checkOpen();
    checkKey('key', key);
    const stored = this.live(key);
    return stored && decodeValue(stored.text);
  }

  /** The value stored at `key` if it has not expired; synchronous, so that a check and a write are atomic. */
  private live(key: string): StoredValue | undefined {
    const stored = this.values.get(key);
    if (stored && stored.expiresAt <= this.now()) {
      this.values.delete(key);
      return undefined;
    }
    return stored;
  }

  async set(key: string, value: JsonValue, options?: SetOptions): Promise<boolean> {
    this.checkOpen();
    checkKey('key', key);
    checkSetOptions(options);
    const text = encodeValue(value);
    this.sweepIfDue();
    if (options?.ifAbsent && this.live(key)) return false;
    const expiresAt = options?.ttlMs === undefined ? Number.POSITIVE_INFINITY : this.now() + options.ttlMs;
    this.values.set(key, { text, expiresAt });
    return true;
  }

  async delete(key: string): Promise<boolean> {
    this.checkOpen();
    checkKey('key', key);
    const existed = this.live(key) !== undefined;
    this.values.delete(key);
    return existed;
  }

  async countInWindow(key: string, options: WindowOptions): Promise<WindowCount> {
    this.checkOpen();
    checkKey('key', key);
    checkWindowOptions(options);
    this.sweepIfDue();
    return options.mode === 'sliding' ? this.countSliding(key, options) : this.countFixed(key, options);
  }

  private countFixed(key: string, { limit, windowMs }: WindowOptions): WindowCount {
    const now = this.now();
    let window = this.windows.get(key);
    if (window?.mode !== 'fixed' || window.expiresAt <= now) {
      window = { mode: 'fixed', count: 0, expiresAt: now + windowMs };
      this.windows.set(key, window);
    }
    if (window.count >= limit) return { allowed: false, count: window.count, retryAfterMs: window.expiresAt - now };
    window.count += 1;
    return { allowed: true, count: window.count, retryAfterMs: 0 };
  }

  private countSliding(key: string, { limit, windowMs }: WindowOptions): WindowCount {
    const now = this.now();
    const existing = this.windows.get(key);
    const hits = existing?.mode === 'sliding' ? existing.hits.filter((at) => at > now - windowMs) : [];
    if (hits.length >= limit) {
      this.windows.set(key, { mode: 'sliding', hits, expiresAt: (hits.at(-1) as number) + windowMs });
      return { allowed: false, count: hits.length, retryAfterMs: (hits[0] as number) + windowMs - now };
    }
    hits.push(now);
    this.windows.set(key, { mode: 'sliding', hits, expiresAt: now + windowMs });
    return { allowed: true, count: hits.length, retryAfterMs: 0 };
  }

  async publish(channel: string, message: JsonValue): Promise<void> {
    this.checkOpen();
    checkKey('channel', channel);
    const text = encodeValue(message);
    const subscriptions = this.channels.get(channel);
    for (const subscription of subscriptions ?? []) {
      // Delivered later, as a remote cache would: a handler never runs inside the publisher's call.
      queueMicrotask(() => {
        if (subscriptions?.has(subscription)) this.deliver(channel, subscription, text);
      });
    }
  }

  private deliver(channel: string, subscription: Subscription, text: string): void {
    try {
      subscription.handler(decodeValue(text));
    } catch (error) {
      this.options.logger?.warn({ err: error, channel }, 'a cache message handler failed');
    }
  }

  async subscribe(channel: string, handler: MessageHandler): Promise<Unsubscribe> {
    this.checkOpen();
    checkKey('channel', channel);
    const subscription: Subscription = { handler };
    let subscriptions = this.channels.get(channel);
    if (!subscriptions) {
      subscriptions = new Set();
      this.channels.set(channel, subscriptions);
    }
    subscriptions.add(subscription);
    return async () => {
      subscriptions.delete(subscription);
      if (subscriptions.size === 0 && this.channels.get(channel) === subscriptions) this.channels.delete(channel);
    };
  }

  async ping(): Promise<void> {
    this.checkOpen();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.values.clear();
    this.windows.clear();
    for (const subscriptions of this.channels.values()) subscriptions.clear();
    this.channels.clear();
  }

  /** Entries held now (values and windows), expired ones not yet swept included: for tests of the sweep. */
  get size(): number {
    return this.values.size + this.windows.size;
  }

  private sweepIfDue(): void {
    const now = this.now();
    if (now < this.nextSweepAt) return;
    this.nextSweepAt = now + SWEEP_INTERVAL_MS;
    for (const [key, stored] of this.values) if (stored.expiresAt <= now) this.values.delete(key);
    for (const [key, window] of this.windows) if (window.expiresAt <= now) this.windows.delete(key);
  }

  private checkOpen(): void {
    if (this.closed) throw new CacheClosedError();
  }
}
