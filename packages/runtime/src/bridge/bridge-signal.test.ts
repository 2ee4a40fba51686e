import { describe, expect, it } from 'vitest';
import { bridgeSignal } from './bridge-signal.js';

describe('bridgeSignal', () => {
  it('gives no signal when nothing can fire one', () => {
    expect(bridgeSignal(new AbortController().signal, false)).toBeUndefined();
    expect(bridgeSignal(new AbortController().signal, false, 'not a signal')).toBeUndefined();
  });

  it("passes the bridge's own signal or the caller's alone, unwrapped", () => {
    const own = new AbortController().signal;
    const caller = new AbortController().signal;
    expect(bridgeSignal(own, true)).toBe(own);
    expect(bridgeSignal(own, false, caller)).toBe(caller);
  });

  it('joins both, so either one aborts the run with its own reason', () => {
    const own = new AbortController();
    const caller = new AbortController();
    const joined = bridgeSignal(own.signal, true, caller.signal);
    expect(joined).not.toBe(own.signal);
    expect(joined?.aborted).toBe(false);
    caller.abort('caller stopped');
    expect(joined?.aborted).toBe(true);
    expect(joined?.reason).toBe('caller stopped');

    const own2 = new AbortController();
    const joined2 = bridgeSignal(own2.signal, true, new AbortController().signal);
    own2.abort('hard stop');
    expect(joined2?.reason).toBe('hard stop');
  });
});
