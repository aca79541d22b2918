export { type RateLimitDecision, RateLimiter, type RateLimiterOptions, type RateLimitRule } from './rate-limiter.ts';
