import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
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
import { type RedisClass, RedisConnection } from './redis-connection.ts';
import { FIXED_WINDOW_SCRIPT, SLIDING_WINDOW_SCRIPT } from './redis-scripts.ts';
import { checkKey, checkSetOptions, checkWindowOptions, decodeValue, encodeValue } from './values.ts';

export interface RedisCacheOptions {
  /** `redis://[user:password@]host:port[/db]` or `rediss://…` */
  url: string;
  /** Put before every key and channel, so that several deployments (or tests) can share one Redis. */
  keyPrefix: string;
  /** How the connections appear in Redis's `CLIENT LIST`; `bosun` unless given. */
  connectionName?: string;
  logger?: CacheLogger;
}

type WindowReply = [allowed: number, count: number, retryAfterMs: number];

/** The window scripts as commands: ioredis runs them by their SHA and sends the text only when Redis lacks it. */
interface WindowCommands {
  fixedWindow(key: string, windowMs: number, limit: number): Promise<WindowReply>;
  slidingWindow(key: string, windowMs: number, limit: number, member: string): Promise<WindowReply>;
}

interface Subscription {
  handler: MessageHandler;
}

/** The cache shared by every replica that uses the same Redis and key prefix. */
export class RedisCache implements Cache {
  private readonly commands: RedisConnection;
  /** Made on the first subscription: a connection that subscribes can run no other command. */
  private subscriber: RedisConnection | undefined;
  private readonly channels = new Map<string, Set<Subscription>>();
  /** Subscribing and unsubscribing in Redis happen one at a time, so they never cross for one channel. */
  private subscriptionChanges: Promise<void> = Promise.resolve();
  private closed = false;

  private get connectionName(): string {
    return this.options.connectionName ?? 'bosun';
  }

  constructor(
    private readonly RedisClient: RedisClass,
    private readonly options: RedisCacheOptions,
  ) {
    this.commands = new RedisConnection(RedisClient, options.url, 'connection', this.connectionName, options.logger);
    this.commands.client.defineCommand('fixedWindow', { numberOfKeys: 1, lua: FIXED_WINDOW_SCRIPT });
    this.commands.client.defineCommand('slidingWindow', { numberOfKeys: 1, lua: SLIDING_WINDOW_SCRIPT });
  }

  async get(key: string): Promise<JsonValue | undefined> {
    const name = this.valueKey(key);
    const text = await this.commands.run((client) => client.get(name));
    return text === null ? undefined : decodeValue(text);
  }

  async set(key: string, value: JsonValue, options?: SetOptions): Promise<boolean> {
    const name = this.valueKey(key);
    checkSetOptions(options);
    const args: (string | number)[] = [name, encodeValue(value)];
    if (options?.ttlMs !== undefined) args.push('PX', options.ttlMs);
    if (options?.ifAbsent) args.push('NX');
    const reply = await this.commands.run((client) => client.call('SET', ...args));
    return reply === 'OK';
  }

  async delete(key: string): Promise<boolean> {
    const name = this.valueKey(key);
    return (await this.commands.run((client) => client.del(name))) > 0;
  }

  async countInWindow(key: string, options: WindowOptions): Promise<WindowCount> {
    const name = this.checked('key', key, 'window:');
    checkWindowOptions(options);
    const { limit, windowMs } = options;
    const [allowed, count, retryAfterMs] = await this.commands.run((client) => {
      const commands = client as Redis & WindowCommands;
      return options.mode === 'sliding'
        ? commands.slidingWindow(name, windowMs, limit, randomUUID())
        : commands.fixedWindow(name, windowMs, limit);
    });
    return { allowed: allowed === 1, count, retryAfterMs };
  }

  async publish(channel: string, message: JsonValue): Promise<void> {
    const name = this.checked('channel', channel, 'channel:');
    const text = encodeValue(message);
    await this.commands.run((client) => client.publish(name, text));
  }

  async subscribe(channel: string, handler: MessageHandler): Promise<Unsubscribe> {
    const name = this.checked('channel', channel, 'channel:');
    const subscriber = this.subscriberConnection();
    const subscription: Subscription = { handler };
    await this.oneAtATime(async () => {
      let subscriptions = this.channels.get(name);
      if (!subscriptions) {
        await subscriber.run((client) => client.subscribe(name));
        subscriptions = new Set();
        this.channels.set(name, subscriptions);
      }
      subscriptions.add(subscription);
    });
    let subscribed = true;
    return async () => {
      if (!subscribed) return;
      subscribed = false;
      await this.oneAtATime(() => this.unsubscribe(name, subscription));
    };
  }

  private async unsubscribe(name: string, subscription: Subscription): Promise<void> {
    const subscriptions = this.channels.get(name);
    subscriptions?.delete(subscription);
    if (!subscriptions || subscriptions.size > 0 || this.closed) return;
    this.channels.delete(name);
    // The handler is gone already; a Redis that cannot be told only keeps sending messages nobody receives.
    await this.subscriber
      ?.run((client) => client.unsubscribe(name))
      .catch((error: Error) => {
        this.options.logger?.warn({ err: { message: error.message }, channel: name }, 'Redis unsubscribe failed');
      });
  }

  private subscriberConnection(): RedisConnection {
    if (this.subscriber) return this.subscriber;
    const subscriber = new RedisConnection(
      this.RedisClient,
      this.options.url,
      'subscriber',
      this.connectionName,
      this.options.logger,
    );
    subscriber.client.on('message', (channel: string, text: string) => this.deliver(channel, text));
    this.subscriber = subscriber;
    return subscriber;
  }

  private deliver(name: string, text: string): void {
    for (const subscription of [...(this.channels.get(name) ?? [])]) {
      try {
        subscription.handler(decodeValue(text));
      } catch (error) {
        this.options.logger?.warn({ err: error, channel: name }, 'a cache message handler failed');
      }
    }
  }

  private oneAtATime(change: () => Promise<void>): Promise<void> {
    const done = this.subscriptionChanges.then(change);
    this.subscriptionChanges = done.catch(() => undefined);
    return done;
  }

  async ping(): Promise<void> {
    this.checkOpen();
    await this.commands.run((client) => client.ping());
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.channels.clear();
    await Promise.all([this.commands.close(), this.subscriber?.close()]);
  }

  private valueKey(key: string): string {
    return this.checked('key', key, 'value:');
  }

  /** The name in Redis of a cache key or channel, after checking it and that the cache is open. */
  private checked(kind: 'key' | 'channel', name: string, namespace: string): string {
    this.checkOpen();
    checkKey(kind, name);
    return `${this.options.keyPrefix}${namespace}${name}`;
  }

  private checkOpen(): void {
    if (this.closed) throw new CacheClosedError();
  }
}
