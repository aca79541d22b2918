/**
 * Window counters as Lua scripts: each runs atomically in Redis, so replicas counting the same key at once never
 * both take the last allowed hit. Time is Redis's own (`TIME`): replicas' clocks may disagree, the server's is one.
 * Each script answers `{allowed (0|1), count, retryAfterMs}`.
 */

const NOW_MS = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
`;

/** KEYS[1]: the counter. ARGV: windowMs, limit. A refused hit is not counted. */
export const FIXED_WINDOW_SCRIPT = `
local window = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count >= limit then
  local ttl = redis.call('PTTL', KEYS[1])
  if ttl > 0 then return {0, count, ttl} end
  redis.call('DEL', KEYS[1])
  count = 0
end
count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], window) end
return {1, count, 0}
`;

/** KEYS[1]: a sorted set of hit times. ARGV: windowMs, limit, a unique member for this hit. */
export const SLIDING_WINDOW_SCRIPT = `${NOW_MS}
local window = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
if count >= limit then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return {0, count, math.max(1, tonumber(oldest[2]) + window - now)}
end
redis.call('ZADD', KEYS[1], now, ARGV[3])
redis.call('PEXPIRE', KEYS[1], window)
return {1, count + 1, 0}
`;
