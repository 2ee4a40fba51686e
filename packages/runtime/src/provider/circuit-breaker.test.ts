import { describe, expect, it } from 'vitest';
import { CircuitBreaker } from './circuit-breaker.js';
import { ManualClock } from '../loop/clock.js';

describe('CircuitBreaker', () => {
  it('opens after N consecutive failures, lets one probe through after the cool-down', async () => {
    const clock = new ManualClock();
    const breaker = new CircuitBreaker({ failureThreshold: 3, cooldownMs: 1_000 }, clock);
    for (let i = 0; i < 2; i++) {
      expect(breaker.tryAcquire()).toBe(true);
      breaker.recordFailure();
    }
    expect(breaker.state).toBe('closed');
    breaker.tryAcquire();
    breaker.recordFailure();
    expect(breaker.state).toBe('open');
    expect(breaker.tryAcquire()).toBe(false);
    await clock.advance(1_000);
    expect(breaker.state).toBe('half-open');
    expect(breaker.tryAcquire()).toBe(true);
    expect(breaker.tryAcquire()).toBe(false);
    breaker.recordFailure();
    expect(breaker.state).toBe('open');
    await clock.advance(1_000);
    expect(breaker.tryAcquire()).toBe(true);
    breaker.recordSuccess();
    expect(breaker.state).toBe('closed');
    expect(breaker.failures).toBe(0);
  });

  it('counts the cool-down on the clock it is given, and says how long until a probe', () => {
    const clock = new ManualClock({ start: 5_000 });
    const breaker = new CircuitBreaker({ failureThreshold: 1, cooldownMs: 2_000 }, clock);
    expect(breaker.retryInMs).toBe(0);
    breaker.recordFailure();
    expect([breaker.state, breaker.retryInMs]).toEqual(['open', 2_000]);
    clock.advanceSync(1_500);
    expect([breaker.state, breaker.retryInMs]).toEqual(['open', 500]);
    clock.advanceSync(500);
    expect([breaker.state, breaker.retryInMs]).toEqual(['half-open', 0]);
  });
});
