import { ManualClock, type ProgressEvent } from '@headway/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CLIReporter } from './cli-reporter.js';
import { RecordingStream, untrustedText } from './fake-terminal.test-util.js';

function exercise(reporter: CLIReporter): void {
  reporter.onStart('task');
  reporter.onIteration(0, 3);
  reporter.onProgress(10, 'x');
  reporter.onToolStart('t');
  reporter.onToolDone('t', 'ok');
  reporter.log('host');
  reporter.handle({ type: 'progress', runId: 'r', seq: 1, ts: 0, percent: 20, etaMs: 5 });
  reporter.onComplete('done');
}

describe.each(['plain', 'live'] as const)('CLIReporter (%s) never throws into the caller', (mode) => {
  it('when the stream throws on write: reports it once and writes nothing more', () => {
    const stream = new RecordingStream({ isTTY: true, columns: 80 });
    let calls = 0;
    stream.write = () => {
      calls += 1;
      throw new Error('EBADF');
    };
    const errors: unknown[] = [];
    const reporter = new CLIReporter({
      stream,
      mode,
      env: {},
      clock: new ManualClock(),
      onInternalError: (e, context) => errors.push([(e as Error).message, context]),
    });
    exercise(reporter);
    expect(calls).toBe(1);
    expect(errors).toEqual([['EBADF', { where: 'write' }]]);
    expect(reporter.failures).toBe(1);
  });

  it('when the stream emits an error (EPIPE: the reader went away): no crash, then silence', () => {
    const stream = new RecordingStream({ isTTY: true, columns: 80 });
    const errors: unknown[] = [];
    const reporter = new CLIReporter({ stream, mode, env: {}, clock: new ManualClock(), onInternalError: (e) => errors.push(e) });
    reporter.onStart('task');
    const written = stream.chunks.length;
    // An EventEmitter with no 'error' listener would throw this at the emitter.
    expect(() => stream.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }))).not.toThrow();
    exercise(reporter);
    expect(stream.chunks.length).toBe(written);
    expect(errors).toHaveLength(1);
  });

  it('adds one error listener to a stream however many reporters use it', () => {
    const stream = new RecordingStream({ isTTY: true, columns: 80 });
    for (let i = 0; i < 20; i++) exercise(new CLIReporter({ stream, mode, env: {}, clock: new ManualClock() }));
    expect(stream.listenerCount('error')).toBe(1);
    expect(stream.listenerCount('resize')).toBe(0);
  });

  it('ignores event types it does not know (a newer protocol) and malformed events', () => {
    const stream = new RecordingStream({ isTTY: true, columns: 80 });
    const errors: unknown[] = [];
    const reporter = new CLIReporter({ stream, mode, env: {}, clock: new ManualClock(), onInternalError: (e) => errors.push(e) });
    reporter.onStart('t');
    const written = stream.chunks.length;
    expect(() => {
      reporter.handle({ type: 'budget.renegotiated', runId: 'r', seq: 1, ts: 0 } as unknown as ProgressEvent);
    }).not.toThrow();
    expect(stream.chunks.length).toBe(written);
    expect(() => {
      reporter.handle({ type: 'tool.executing', runId: 'r', seq: 2, ts: 0 } as unknown as ProgressEvent);
    }).not.toThrow();
    expect(errors).toHaveLength(1);
  });

  it('when onInternalError itself throws', () => {
    const stream = new RecordingStream({ isTTY: true });
    stream.write = () => {
      throw new Error('boom');
    };
    const reporter = new CLIReporter({
      stream,
      mode,
      env: {},
      clock: new ManualClock(),
      onInternalError: () => {
        throw new Error('callback boom');
      },
    });
    expect(() => {
      exercise(reporter);
    }).not.toThrow();
  });

  it('when the reader stalls: output past the buffer bound is dropped, memory does not grow', () => {
    const stream = new RecordingStream({ isTTY: true, columns: 80 });
    const reporter = new CLIReporter({ stream, mode, env: {}, clock: new ManualClock(), maxBufferedBytes: 100 });
    reporter.onStart('task');
    stream.writableLength = 101;
    const written = stream.chunks.length;
    for (let i = 0; i < 100; i++) reporter.onToolStart(`t${i}`);
    reporter.onComplete('done');
    expect(stream.chunks.length).toBe(written);
    stream.writableLength = 0;
    reporter.onStart('again');
    expect(stream.chunks.length).toBeGreaterThan(written);
  });

  it('for any sequence of calls with any arguments', () => {
    const text = untrustedText(12);
    const num = fc.oneof(fc.double(), fc.integer());
    const call = fc.oneof(
      fc.tuple(fc.constant('onStart' as const), text),
      fc.tuple(fc.constant('onProgress' as const), num, text),
      fc.tuple(fc.constant('onToolStart' as const), text),
      fc.tuple(fc.constant('onToolDone' as const), text, text),
      fc.tuple(fc.constant('onIteration' as const), num, num),
      fc.tuple(fc.constant('onComplete' as const), text),
      fc.tuple(fc.constant('onError' as const), text),
      // The host's own log() text is the host's to style; only run data is untrusted.
      fc.tuple(fc.constant('log' as const), fc.string()),
      fc.tuple(fc.constant('tick' as const), fc.nat(10_000)),
    );
    fc.assert(
      fc.property(fc.array(call, { maxLength: 25 }), fc.integer({ min: 1, max: 200 }), (calls, columns) => {
        const stream = new RecordingStream({ isTTY: true, columns, rows: 10 });
        const clock = new ManualClock({ start: 1_000_000 });
        const errors: unknown[] = [];
        const reporter = new CLIReporter({ stream, mode, env: {}, clock, onInternalError: (e) => errors.push(e) });
        for (const [name, ...args] of calls) {
          if (name === 'tick') {
            clock.advanceSync(Number(args[0]));
          } else {
            (reporter[name] as (...a: unknown[]) => void)(...args);
          }
        }
        reporter.onComplete('end');
        expect(errors).toEqual([]);
        expect(clock.pendingTimers).toBe(0);
        // eslint-disable-next-line no-control-regex -- untrusted text must not carry escapes
        const injected = /\u001b\]|\u001b\[2J|\u0007/;
        expect(stream.text).not.toMatch(injected);
      }),
      { numRuns: 60 },
    );
  }, 30_000);
});
