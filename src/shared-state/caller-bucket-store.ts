import type { BucketFigures, BucketRefusal, CallerBucketStore, CallerLimitKind } from '../policy/caller-buckets.js';
import type { RedisLink } from './redis-link.js';

/**
 * One caller's buckets (a hash: `operations`, `restCalls`, `at`, in seconds of Redis's clock), the
 * arithmetic of policy/token-bucket.ts in one atomic script, so that replicas taking from the same
 * bucket at once never both take its last token. The key expires when both buckets would be full
 * again, when it is no different from no key: idle callers cost Redis nothing.
 * KEYS: the caller's bucket. ARGV: operations per second, burst, REST calls per minute, REST calls
 * to spend (0: take an operation). Returns `{limit, retryAfter}`, limit '' when admitted.
 */
const TAKE_OR_SPEND = `
local time = redis.call('TIME')
local now = tonumber(time[1]) + tonumber(time[2]) / 1000000
local ops_rate, burst = tonumber(ARGV[1]), tonumber(ARGV[2])
local rest_cap = tonumber(ARGV[3])
local rest_rate = rest_cap / 60
local spend = tonumber(ARGV[4])
local state = redis.call('HMGET', KEYS[1], 'operations', 'restCalls', 'at')
local elapsed = math.max(0, now - (tonumber(state[3]) or now))
local ops = math.min(burst, (tonumber(state[1]) or burst) + elapsed * ops_rate)
local rest = math.min(rest_cap, (tonumber(state[2]) or rest_cap) + elapsed * rest_rate)
local limit, wait = '', 0
if spend > 0 then
  rest = rest - spend
else
  if rest_rate > 0 and rest < 1 then limit, wait = 'restCalls', math.ceil((1 - rest) / rest_rate) end
  if ops_rate > 0 and ops < 1 then
    local ops_wait = math.ceil((1 - ops) / ops_rate)
    if ops_wait > wait then limit, wait = 'operations', ops_wait end
  end
  if limit == '' and ops_rate > 0 then ops = ops - 1 end
end
local refill = 0
if ops_rate > 0 then refill = math.max(refill, (burst - ops) / ops_rate) end
if rest_rate > 0 then refill = math.max(refill, (rest_cap - rest) / rest_rate) end
redis.call('HSET', KEYS[1], 'operations', string.format('%.6f', ops), 'restCalls', string.format('%.6f', rest), 'at', string.format('%.6f', now))
redis.call('PEXPIRE', KEYS[1], math.ceil(refill * 1000) + 1000)
return {limit, math.max(1, wait)}`;

/** The callers' buckets in Redis, shared by every replica; the key is the caller's digest (never a token) or address. */
export class RedisCallerBuckets implements CallerBucketStore {
  constructor(private readonly link: RedisLink) {}

  async take(key: string, figures: BucketFigures): Promise<BucketRefusal | undefined> {
    const [limit, retryAfter] = (await this.run(key, figures, 0)) as [string, number];
    return limit === '' ? undefined : { limit: limit as CallerLimitKind, retryAfter };
  }

  async spend(key: string, figures: BucketFigures, restCalls: number): Promise<void> {
    if (figures.restCallsPerMinute > 0) await this.run(key, figures, restCalls);
  }

  private run(key: string, { operationsPerSecond, operationBurst, restCallsPerMinute }: BucketFigures, spend: number): Promise<unknown> {
    return this.link.client.eval(TAKE_OR_SPEND, 1, this.link.key('caller-limits', key), operationsPerSecond, operationBurst, restCallsPerMinute, spend);
  }
}
