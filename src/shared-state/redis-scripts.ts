/**
 * Lua shared by the Redis stores. Scripts run atomically, so a bound can never be overrun by two
 * replicas inserting at once. Entry keys evicted by a script are not among its declared KEYS:
 * fine on a standalone Redis (what the gateway supports), not on Redis Cluster.
 */

/**
 * `bounded_set(entry, index, value, ttlMs, maxEntries)`: stores an entry for `ttlMs` and records
 * it in a sorted set by expiry time; forgets expired entries and, beyond `maxEntries`, those that
 * expire first (with one TTL per store: the oldest).
 */
const BOUNDED_SET = `
local function bounded_set(entry, index, value, ttl_ms, max_entries)
  local time = redis.call('TIME')
  -- Milliseconds with the microseconds as a fraction: entries stored within one millisecond still
  -- expire, and are evicted, in the order they came (a tie would order them by key, a hash).
  -- Passed as text: Redis turns a Lua number into an argument with 14 significant digits only.
  local now_ms = tonumber(time[1]) * 1000 + tonumber(time[2]) / 1000
  redis.call('SET', entry, value, 'PX', ttl_ms)
  redis.call('ZADD', index, string.format('%.3f', now_ms + tonumber(ttl_ms)), entry)
  redis.call('ZREMRANGEBYSCORE', index, '-inf', string.format('%.3f', now_ms))
  local excess = redis.call('ZCARD', index) - tonumber(max_entries)
  if excess > 0 then
    local oldest = redis.call('ZRANGE', index, 0, excess - 1)
    redis.call('DEL', unpack(oldest))
    redis.call('ZREMRANGEBYRANK', index, 0, excess - 1)
  end
  redis.call('PEXPIRE', index, ttl_ms)
end
`;

/** KEYS: entry, index. ARGV: value, ttlMs, maxEntries. */
export const SET_BOUNDED = `${BOUNDED_SET}
bounded_set(KEYS[1], KEYS[2], ARGV[1], ARGV[2], ARGV[3])
return 1`;

/**
 * Response cache entries are stored as `<generation>\\n<json>`; a mutation increments the
 * generation, which empties the cache for every replica at once in O(1).
 * KEYS: generation, entry. Returns `{generation}` or `{generation, json}`.
 */
export const LOOKUP_IN_GENERATION = `
local generation = redis.call('GET', KEYS[1]) or '0'
local entry = redis.call('GET', KEYS[2])
if entry and string.sub(entry, 1, #generation + 1) == generation .. '\\n' then
  return {generation, string.sub(entry, #generation + 2)}
end
return {generation}`;

/**
 * Stores a response only if no mutation came between its lookup and now: an answer read before a
 * write must not outlive it. KEYS: generation, entry, index. ARGV: generation at lookup, json,
 * ttlMs, maxEntries. Returns 1 when stored.
 */
export const SET_IN_GENERATION = `${BOUNDED_SET}
if (redis.call('GET', KEYS[1]) or '0') ~= ARGV[1] then
  return 0
end
bounded_set(KEYS[2], KEYS[3], ARGV[1] .. '\\n' .. ARGV[2], ARGV[3], ARGV[4])
return 1`;
