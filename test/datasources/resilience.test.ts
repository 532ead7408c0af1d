import { describe, expect, it } from 'vitest';
import { CircuitBreaker, DEFAULT_RETRY_POLICY, isRetryableMethod, isRetryableStatus, retryDelayMs } from '../../src/datasources/resilience.js';

describe('retry policy', () => {
  it('retries reads only, and only passing faults', () => {
    expect(['GET', 'HEAD'].map(isRetryableMethod)).toEqual([true, true]);
    expect(['POST', 'PUT', 'DELETE'].map(isRetryableMethod)).toEqual([false, false, false]);
    expect([0, 429, 502, 503, 504].map(isRetryableStatus)).toEqual([true, true, true, true, true]);
    expect([400, 401, 403, 404, 409, 500].map(isRetryableStatus)).toEqual([false, false, false, false, false, false]);
  });

  it('backs off exponentially with jitter, within the cap', () => {
    const policy = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 100, maxDelayMs: 2_000 };
    expect(retryDelayMs(policy, 1, undefined, () => 0.5)).toBe(100);
    expect(retryDelayMs(policy, 2, undefined, () => 0.5)).toBe(200);
    expect(retryDelayMs(policy, 2, undefined, () => 0)).toBe(100);
    expect(retryDelayMs(policy, 2, undefined, () => 0.999)).toBe(300);
    expect(retryDelayMs(policy, 10, undefined, () => 0.5)).toBe(2_000);
  });

  it('honours Retry-After, and gives up when it asks for longer than the cap', () => {
    expect(retryDelayMs(DEFAULT_RETRY_POLICY, 1, 1)).toBe(1_000);
    expect(retryDelayMs(DEFAULT_RETRY_POLICY, 1, 30)).toBeNull();
  });
});

describe('CircuitBreaker', () => {
  function breaker() {
    let now = 0;
    const circuit = new CircuitBreaker({ failureThreshold: 3, cooldownMs: 1_000 }, () => now);
    return { circuit, advance: (ms: number) => (now += ms) };
  }

  it('opens after the threshold of consecutive failures, and a success in between resets the count', () => {
    const { circuit } = breaker();
    circuit.recordFailure();
    circuit.recordFailure();
    circuit.recordSuccess();
    circuit.recordFailure();
    circuit.recordFailure();
    expect(circuit.state).toBe('closed');
    circuit.recordFailure();
    expect(circuit.state).toBe('open');
    expect(circuit.allow()).toBe(false);
  });

  it('lets one trial through after the cooldown: success closes, failure opens again', () => {
    const { circuit, advance } = breaker();
    for (let i = 0; i < 3; i++) circuit.recordFailure();
    advance(1_000);
    expect(circuit.state).toBe('half-open');
    expect(circuit.allow()).toBe(true);
    expect(circuit.allow()).toBe(false);
    circuit.recordFailure();
    expect(circuit.state).toBe('open');
    advance(1_000);
    expect(circuit.allow()).toBe(true);
    circuit.recordSuccess();
    expect(circuit.state).toBe('closed');
    expect(circuit.allow()).toBe(true);
  });

  it('does not count a neutral outcome, but frees the trial slot', () => {
    const { circuit, advance } = breaker();
    for (let i = 0; i < 3; i++) circuit.recordFailure();
    advance(1_000);
    expect(circuit.allow()).toBe(true);
    circuit.recordNeutral();
    expect(circuit.allow()).toBe(true);
  });
});
