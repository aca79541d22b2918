import type { Cache } from '../cache/index.ts';

export interface RateLimitRule {
  /** Hits allowed per window (a positive integer). */
  limit: number;
  /** The window's length in milliseconds (a positive integer). */
  windowMs: number;
}

export interface RateLimitDecision {
  allowed: boolean;
  /** For `Retry-After`: whole seconds until a hit would be allowed (at least 1 when refused), 0 when allowed. */
  retryAfterSeconds: number;
  /** Hits still allowed in the current window after this one. */
  remaining: number;
}

export interface RateLimiterOptions {
  /**
   * `sliding` (the default) counts each hit for exactly one window after it; `fixed` is cheaper but lets a client
   * spend twice the limit across a window boundary.
   */
  mode?: 'fixed' | 'sliding';
}

/**
 * Limits how often a key (a user, an address) may do something in a scope (a route, an action). The counts live in
 * the cache, so replicas sharing a Redis enforce one limit together.
 */
export class RateLimiter {
  constructor(
    private readonly cache: Cache,
    private readonly options: RateLimiterOptions = {},
  ) {}

  async hit(scope: string, key: string, rule: RateLimitRule): Promise<RateLimitDecision> {
    const counted = await this.cache.countInWindow(counterKey(scope, key), {
      ...rule,
      mode: this.options.mode ?? 'sliding',
    });
    return {
      allowed: counted.allowed,
      retryAfterSeconds: counted.allowed ? 0 : Math.max(1, Math.ceil(counted.retryAfterMs / 1000)),
      remaining: Math.max(0, rule.limit - counted.count),
    };
  }
}

/** Scope and key are encoded, so that no scope and key pair can name another's counter (`a:b` + `c` vs `a` + `b:c`). */
function counterKey(scope: string, key: string): string {
  if (!scope || !key) throw new TypeError('A rate limit needs a non-empty scope and key');
  return `rate-limit:${encodeURIComponent(scope)}:${encodeURIComponent(key)}`;
}
