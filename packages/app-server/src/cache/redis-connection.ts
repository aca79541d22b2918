import type { Redis, RedisOptions } from 'ioredis';
import { type CacheLogger, CacheUnavailableError } from './cache.ts';

export type RedisClass = typeof Redis;

/** A URL fit for messages and logs: no user name, no password. */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.toString();
  } catch {
    return 'an unparseable Redis URL';
  }
}

/**
 * Connects on first use and reconnects for ever with a capped backoff (Redis may restart under a running app),
 * while a command made during an outage fails after one retry instead of waiting for the outage to end.
 */
const CLIENT_OPTIONS: RedisOptions = {
  lazyConnect: true,
  maxRetriesPerRequest: 1,
  connectTimeout: 5_000,
  retryStrategy: (attempt: number) => Math.min(attempt * 100, 2_000),
};

/** One connection to Redis, whose failures become `CacheUnavailableError`s naming the server (not its password). */
export class RedisConnection {
  readonly client: Redis;
  private lastError: Error | undefined;

  constructor(
    RedisClient: RedisClass,
    private readonly url: string,
    private readonly role: string,
    connectionName: string,
    private readonly logger?: CacheLogger,
  ) {
    this.client = new RedisClient(url, { ...CLIENT_OPTIONS, connectionName });
    this.watch();
  }

  private watch(): void {
    this.client.on('error', (error: Error) => {
      // One warning per outage: reconnection attempts repeat the same error every couple of seconds.
      if (!this.lastError) {
        this.logger?.warn({ err: { message: error.message }, redis: redactedUrl(this.url) }, `Redis ${this.role} lost`);
      }
      this.lastError = error;
    });
    this.client.on('ready', () => {
      this.lastError = undefined;
    });
  }

  /** Runs a command; any failure is rethrown as a clear `CacheUnavailableError`. */
  async run<T>(command: (client: Redis) => Promise<T>): Promise<T> {
    // During a known outage, fail at once rather than wait for the next reconnection attempt to fail too.
    if (this.lastError && this.client.status === 'reconnecting') throw this.unavailable(this.lastError);
    try {
      return await command(this.client);
    } catch (error) {
      throw this.unavailable(error);
    }
  }

  private unavailable(error: unknown): CacheUnavailableError {
    const where = `Redis at ${redactedUrl(this.url)}`;
    if (error instanceof Error && error.name === 'ReplyError') {
      return new CacheUnavailableError(`${where} refused a command: ${error.message}`);
    }
    const reason = this.lastError?.message ?? (error instanceof Error ? error.message : String(error));
    return new CacheUnavailableError(`${where} is unreachable: ${reason}`);
  }

  /** Ends the connection and its reconnection attempts. */
  async close(): Promise<void> {
    if (this.client.status === 'ready') {
      await this.client.quit().catch(() => this.client.disconnect());
    } else {
      this.client.disconnect();
    }
  }
}
