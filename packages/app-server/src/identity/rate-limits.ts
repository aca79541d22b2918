import { HttpError } from '@bosun/http';
import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { RateLimitRule, RateLimiter as RateLimiterOfCache } from '../rate-limit/index.ts';

/** Counts hits per scope and key; shared between replicas when its cache is Redis. */
export type RateLimiter = Pick<RateLimiterOfCache, 'hit'>;

/**
 * The expensive or sensitive operations, each limited per user (sign-in and reads of shared conversations, made
 * without credentials: per client address).
 */
export type LimitedOperation = 'api_key_create' | 'secret_write' | 'sign_in' | 'sandbox_start' | 'shared_read';

export type RateLimits = Record<LimitedOperation, RateLimitRule>;

export const DEFAULT_RATE_LIMITS: RateLimits = {
  api_key_create: { limit: 20, windowMs: 60 * 60_000 },
  secret_write: { limit: 120, windowMs: 60_000 },
  sign_in: { limit: 10, windowMs: 60_000 },
  sandbox_start: { limit: 30, windowMs: 60_000 },
  shared_read: { limit: 300, windowMs: 60_000 },
};

/**
 * A pre-handler that answers 429 with `Retry-After` once the caller has used up `operation`'s limit. It runs
 * after validation, so malformed requests neither count nor get a 429 instead of their 422.
 */
export function rateLimited(
  limiter: RateLimiter,
  limits: RateLimits,
  operation: LimitedOperation,
): preHandlerAsyncHookHandler {
  return async (request: FastifyRequest) => {
    const who = request.principal?.userId ?? `ip:${request.ip}`;
    const { allowed, retryAfterSeconds } = await limiter.hit(operation, who, limits[operation]);
    if (allowed) return;
    const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
    throw new HttpError(429, `Too many requests: try again in ${seconds} s`, { 'Retry-After': String(seconds) });
  };
}

/**
 * `rateLimited` for sign-in, whose routes a browser opens itself: a browser over the limit is sent to the sign-in
 * page, which says when to try again (`?sign_in=limited&retry_after=<s>`), instead of being shown the 429's JSON.
 */
export function signInRateLimited(limiter: RateLimiter, limits: RateLimits): preHandlerAsyncHookHandler {
  const limited = rateLimited(limiter, limits, 'sign_in');
  return async function signInLimit(request, reply) {
    try {
      await limited.call(this, request, reply);
    } catch (error) {
      const retryAfter = error instanceof HttpError && error.statusCode === 429 && error.headers['Retry-After'];
      if (!retryAfter || !(request.headers.accept ?? '').includes('text/html')) throw error;
      return reply
        .header('Retry-After', retryAfter)
        .header('Cache-Control', 'no-store')
        .redirect(`/sign-in?sign_in=limited&retry_after=${retryAfter}`, 303);
    }
  };
}
