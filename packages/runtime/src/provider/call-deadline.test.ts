import { HeadwayError, ManualClock } from '@headway/protocol';
import { describe, expect, it } from 'vitest';
import { createCallDeadline, sdkBackstopTimeout } from './call-deadline.js';

describe('createCallDeadline', () => {
  it('aborts its signal when the time is up and then says so with PROVIDER_TIMEOUT', () => {
    const clock = new ManualClock({ start: 0 });
    const deadline = createCallDeadline('openai', 1000, clock);
    clock.advanceSync(999);
    expect(deadline.signal.aborted).toBe(false);
    clock.advanceSync(1);
    expect(deadline.signal.aborted).toBe(true);
    expect(deadline.timedOut()).toBe(true);
    const error = deadline.error();
    expect(HeadwayError.isInstance(error, 'PROVIDER_TIMEOUT')).toBe(true);
    expect(error.message).toBe('Provider "openai" did not finish answering within 1000 ms');
    expect(error.retryable).toBe(true);
  });

  it("follows the caller's signal (with its reason), and a cleared deadline never fires", () => {
    const clock = new ManualClock({ start: 0 });
    const caller = new AbortController();
    const deadline = createCallDeadline('p', 1000, clock, caller.signal);
    caller.abort('stop');
    expect(deadline.signal.reason).toBe('stop');
    expect(deadline.timedOut()).toBe(false);
    const quiet = createCallDeadline('p', 1000, clock);
    quiet.clear();
    clock.advanceSync(5000);
    expect(quiet.signal.aborted).toBe(false);
  });
});

describe('sdkBackstopTimeout', () => {
  it('is never below the SDK default of 10 minutes, and follows a longer timeoutMs', () => {
    expect(sdkBackstopTimeout(undefined)).toBe(600_000);
    expect(sdkBackstopTimeout(300)).toBe(600_000);
    expect(sdkBackstopTimeout(1_200_000)).toBe(1_200_000);
  });
});
