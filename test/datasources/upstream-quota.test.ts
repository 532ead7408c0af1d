// The ledger of GitLab's rate limits per credential (src/datasources/upstream-quota.ts), on a clock
// of the test's own: figures from headers, calls in flight, pacing, refusals, poll delays, merging
// what other replicas saw, and its bound. Over real HTTP: test/ops/upstream-rate-limits.test.ts.
import { describe, expect, it } from 'vitest';
import type { Credential } from '../../src/datasources/credentials.js';
import { ANONYMOUS_QUOTA_KEY, RESET_MARGIN_MS, UpstreamQuota, UpstreamQuotaSpent, type QuotaFigures } from '../../src/datasources/upstream-quota.js';
import { toGraphQLError } from '../../src/errors/graphql-errors.js';
import { GatewayMetrics, MAX_QUOTA_CREDENTIALS_SHOWN } from '../../src/observability/metrics.js';
import { randomCredentialDigest } from '../../src/shared-state/credential-digest.js';

const T0 = 1_800_000_000_000;
const alice: Credential = { kind: 'private-token', value: 'glpat-alice-0000000000' };
const bob: Credential = { kind: 'private-token', value: 'glpat-bob-00000000000' };

function ledger(options: { maxCredentials?: number } = {}) {
  const clock = { now: T0 };
  const quota = new UpstreamQuota({ digest: randomCredentialDigest(), now: () => clock.now, ...options });
  return { quota, clock };
}

/** The headers of an answer of GitLab's throttle: `remaining` left, resetting `inSeconds` from T0. */
function throttled(remaining: number, inSeconds: number, extra: Record<string, string> = {}) {
  const headers: Record<string, string> = {
    'ratelimit-name': 'throttle_authenticated_api',
    'ratelimit-limit': '60',
    'ratelimit-observed': String(60 - remaining),
    'ratelimit-remaining': String(remaining),
    'ratelimit-reset': String(T0 / 1000 + inSeconds),
    ...extra,
  };
  return (name: string) => headers[name];
}
const none = () => undefined;

describe('UpstreamQuota', () => {
  it('knows nothing, refuses nothing and paces nothing until GitLab sends its headers', () => {
    const { quota } = ledger();
    quota.answered(undefined, alice, 200, none);
    expect(quota.sending(alice)).toBeUndefined();
    expect(quota.refusal(alice, 1_000_000)).toBeUndefined();
    expect(quota.pollDelay(alice, 5_000)).toBe(5_000);
    expect(quota.snapshot(10)).toEqual([]);
  });

  it('costs a call without figures one header lookup, and no digest while nothing is known', () => {
    let digests = 0;
    let lookups = 0;
    const digest = randomCredentialDigest();
    const quota = new UpstreamQuota({ digest: (credential) => (digests++, digest(credential)), now: () => T0 });
    for (let call = 0; call < 100; call++) {
      const sent = quota.sending(alice);
      quota.answered(sent, alice, 200, () => void lookups++);
      quota.refusal(alice, 50);
      quota.pollDelay(alice, 5_000);
    }
    expect(lookups).toBe(100);
    expect(digests).toBe(0);
  });

  it('records each credential apart by digest, and anonymous calls under one entry', () => {
    const { quota } = ledger();
    quota.answered(undefined, alice, 200, throttled(10, 30));
    quota.answered(undefined, bob, 200, throttled(40, 30));
    quota.answered(undefined, null, 200, throttled(3, 30));
    const shown = quota.snapshot(10);
    expect(shown.map(({ remaining }) => remaining)).toEqual([3, 40, 10]);
    expect(shown[0]!.digest).toBe(ANONYMOUS_QUOTA_KEY);
    expect(shown[2]!.digest).toBe(quota.keyOf(alice));
    expect(JSON.stringify(shown)).not.toContain(alice.value);
  });

  it('counts the calls in flight against what is left, and paces a call once nothing is', () => {
    const { quota, clock } = ledger();
    quota.answered(undefined, alice, 200, throttled(2, 30));
    const first = quota.sending(alice);
    const second = quota.sending(alice);
    expect(quota.refusal(alice, 1)).toBe(30);
    clock.now += 10_400;
    expect(() => quota.sending(alice)).toThrow(UpstreamQuotaSpent);
    try {
      quota.sending(alice);
    } catch (error) {
      expect((error as UpstreamQuotaSpent).retryAfter).toBe(20);
      expect(toGraphQLError(error).extensions).toEqual({ code: 'RATE_LIMITED', retryAfter: 20 });
    }
    // An answer without figures (a failed exchange) frees its call all the same.
    quota.answered(first, alice, 0, none);
    expect(quota.snapshot(1)[0]).toEqual({ digest: quota.keyOf(alice), remaining: 1, paced: 2, refused: 1 });
    quota.answered(second, alice, 200, throttled(0, 30));
    expect(quota.snapshot(1)[0]!.remaining).toBe(0);
  });

  it('refuses an estimate the calls left do not cover, with the seconds until the reset, and admits one that fits', () => {
    const { quota, clock } = ledger();
    quota.answered(undefined, alice, 200, throttled(5, 60));
    expect(quota.refusal(alice, 5)).toBeUndefined();
    expect(quota.refusal(alice, 0)).toBeUndefined();
    clock.now += 59_001;
    expect(quota.refusal(alice, 6)).toBe(1);
    // Past the reset the figures say nothing: admitted.
    clock.now = T0 + 60_000;
    expect(quota.refusal(alice, 6)).toBeUndefined();
    expect(quota.sending(alice)).toBeUndefined();
  });

  it("never raises what is left within a window (answers out of order), and takes a new window's figures", () => {
    const { quota } = ledger();
    quota.answered(undefined, alice, 200, throttled(5, 60));
    quota.answered(undefined, alice, 200, throttled(9, 60));
    expect(quota.snapshot(1)[0]!.remaining).toBe(5);
    quota.answered(undefined, alice, 200, throttled(50, 120));
    expect(quota.snapshot(1)[0]!.remaining).toBe(50);
    quota.answered(undefined, alice, 200, throttled(1, 60));
    expect(quota.snapshot(1)[0]!.remaining).toBe(50);
  });

  it("takes a throttle's 429 as nothing left until its Retry-After, and ignores a 429 without GitLab's headers", () => {
    const { quota } = ledger();
    quota.answered(undefined, alice, 429, (name) => ({ 'retry-after': '30' })[name]);
    expect(quota.sending(alice)).toBeUndefined();
    quota.answered(undefined, alice, 429, throttled(0, 20, { 'retry-after': '45' }));
    expect(quota.refusal(alice, 1)).toBe(45);
  });

  it("reads a Retry-After written as an HTTP date, as the REST client's retries do", () => {
    const { quota } = ledger();
    quota.answered(undefined, alice, 429, throttled(0, 20, { 'retry-after': new Date(T0 + 90_000).toUTCString() }));
    expect(quota.refusal(alice, 1)).toBe(90);
  });

  it('ignores figures it cannot read, or of a window already over', () => {
    const { quota } = ledger();
    quota.answered(undefined, alice, 200, throttled(5, 0));
    quota.answered(undefined, alice, 200, (name) => ({ 'ratelimit-remaining': 'lots', 'ratelimit-reset': String(T0 / 1000 + 60) })[name]);
    quota.answered(undefined, alice, 200, (name) => ({ 'ratelimit-remaining': '4' })[name]);
    expect(quota.snapshot(5)).toEqual([]);
  });

  it("stretches a poller's interval as the calls left run low, and waits past the reset when none are", () => {
    const { quota } = ledger();
    quota.answered(undefined, alice, 200, throttled(1_000, 60));
    expect(quota.pollDelay(alice, 5_000)).toBe(5_000);
    quota.answered(undefined, alice, 200, throttled(4, 60));
    // Half of the 4 left over the 60 s to go: one poll every 30 s.
    expect(quota.pollDelay(alice, 5_000)).toBe(30_000);
    quota.answered(undefined, alice, 200, throttled(0, 60));
    expect(quota.pollDelay(alice, 5_000)).toBe(60_000 + RESET_MARGIN_MS);
  });

  it('publishes figures that changed materially, and merges what other replicas saw', () => {
    const { quota } = ledger();
    const published: Array<[string, QuotaFigures]> = [];
    const asked: string[] = [];
    quota.shareWith({ publish: (digest, figures) => published.push([digest, figures]), lookUp: (digest) => asked.push(digest) });
    for (const remaining of [100, 99, 95, 90, 89, 80, 3, 2]) quota.answered(undefined, alice, 200, throttled(remaining, 60));
    expect(published.map(([, figures]) => figures.remaining)).toEqual([100, 90, 80, 3, 2]);
    expect(published.every(([digest]) => digest === quota.keyOf(alice))).toBe(true);

    // Unknown here: asked once of the others, admitted meanwhile; their figures then count.
    expect(quota.refusal(bob, 10)).toBeUndefined();
    expect(quota.refusal(bob, 10)).toBeUndefined();
    expect(asked).toEqual([quota.keyOf(bob)]);
    quota.merge(quota.keyOf(bob), { remaining: 4, resetAt: T0 + 30_000 });
    expect(quota.refusal(bob, 10)).toBe(30);
    // Merged figures are never published again.
    expect(published).toHaveLength(5);
  });

  it('exposes at most MAX_QUOTA_CREDENTIALS_SHOWN credentials in /metrics, the most recently updated, and drops those whose window reset', async () => {
    const { quota, clock } = ledger();
    const many = MAX_QUOTA_CREDENTIALS_SHOWN + 50;
    const credentials: Credential[] = Array.from({ length: many }, (_, index) => ({ kind: 'private-token', value: `glpat-many-${index}` }));
    // The ten updated last reset first.
    credentials.forEach((credential, index) => quota.answered(undefined, credential, 200, throttled(index, index >= many - 10 ? 30 : 60)));
    const metrics = new GatewayMetrics({ activeSubscriptions: () => 0, activePollers: () => 0, upstreamQuota: (max) => quota.snapshot(max) });
    const series = async () => (await metrics.render()).body.split('\n').filter((line) => line.startsWith('gateway_upstream_quota_remaining{'));
    const shown = await series();
    expect(shown).toHaveLength(MAX_QUOTA_CREDENTIALS_SHOWN);
    expect(shown).toContain(`gateway_upstream_quota_remaining{credential="${quota.keyOf(credentials[many - 1]!)}"} ${many - 1}`);
    expect(shown.join('\n')).not.toContain('glpat-');
    // Past their reset the ten leave, and ten others, updated earlier, take their places.
    clock.now += 30_000;
    const after = await series();
    expect(after).toHaveLength(MAX_QUOTA_CREDENTIALS_SHOWN);
    expect(after.join('\n')).not.toContain(quota.keyOf(credentials[many - 1]!));
    expect(after).toContain(`gateway_upstream_quota_remaining{credential="${quota.keyOf(credentials[many - 11]!)}"} ${many - 11}`);
    clock.now += 30_000;
    expect(await series()).toHaveLength(0);
  });

  it('remembers at most maxCredentials, dropping the least recently updated', () => {
    const { quota } = ledger({ maxCredentials: 2 });
    quota.answered(undefined, alice, 200, throttled(1, 60));
    quota.answered(undefined, bob, 200, throttled(2, 60));
    quota.answered(undefined, alice, 200, throttled(1, 60));
    quota.answered(undefined, null, 200, throttled(3, 60));
    expect(quota.snapshot(10).map(({ digest }) => digest)).toEqual([ANONYMOUS_QUOTA_KEY, quota.keyOf(alice)]);
    expect(quota.snapshot(1)).toHaveLength(1);
  });
});
