import { describe, expect, it } from 'vitest';
import { abortError, repeatOn, sleep, systemClock, unrefClock, unrefTimer } from './clock.js';
import { ManualClock } from './manual-clock.js';

describe('unrefClock', () => {
  it('unrefs every timer the clock sets', () => {
    const clock = unrefClock(systemClock);
    const handle = clock.setTimeout(() => undefined, 60_000) as NodeJS.Timeout;
    expect(handle.hasRef()).toBe(false);
    clock.clearTimeout(handle);
  });
});

describe('repeatOn', () => {
  it('calls back every interval on the clock until stopped, also from inside the callback', async () => {
    const clock = new ManualClock();
    const at: number[] = [];
    const stop = repeatOn(clock, 100, () => {
      at.push(clock.now());
      if (at.length === 3) stop();
    });
    await clock.advance(1_000);
    expect(at).toEqual([100, 200, 300]);
    expect(clock.pendingTimers).toBe(0);
  });

  it('keeps repeating after a callback throws, like setInterval', async () => {
    const clock = new ManualClock();
    let calls = 0;
    const stop = repeatOn(clock, 10, () => {
      calls += 1;
      throw new Error('boom');
    });
    await expect(clock.advance(10)).rejects.toThrow('boom');
    await expect(clock.advance(10)).rejects.toThrow('boom');
    expect(calls).toBe(2);
    stop();
    stop();
    expect(clock.pendingTimers).toBe(0);
  });
});

describe('unrefTimer', () => {
  it('unrefs a Node timer and passes other handles through', () => {
    const handle = systemClock.setTimeout(() => undefined, 60_000) as NodeJS.Timeout;
    expect(unrefTimer(handle).hasRef()).toBe(false);
    systemClock.clearTimeout(handle);
    expect(unrefTimer(3)).toBe(3);
    expect(unrefTimer(null)).toBe(null);
  });
});

describe('sleep', () => {
  it('resolves when the clock reaches the end of the wait', async () => {
    const clock = new ManualClock();
    let done = false;
    const waiting = sleep(clock, 500).then(() => (done = true));
    await clock.advance(499);
    expect(done).toBe(false);
    await clock.advance(1);
    await waiting;
    expect(clock.now()).toBe(500);
  });

  it("rejects with the signal's reason, or an AbortError with the given message", async () => {
    const clock = new ManualClock();
    const controller = new AbortController();
    const waiting = sleep(clock, 500, controller.signal, 'The subscription was aborted');
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
    expect(clock.pendingTimers).toBe(0);
    const reason = new Error('stop');
    await expect(sleep(clock, 5, AbortSignal.abort(reason))).rejects.toBe(reason);
    expect(abortError(AbortSignal.abort('why')).message).toBe('why');
    expect(abortError(undefined, 'The subscription was aborted').message).toBe('The subscription was aborted');
  });
});
