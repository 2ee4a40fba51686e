import { describe, expect, it } from 'vitest';
import { createReporterEvents, createReporterSink } from './bridges.js';
import { systemClock } from './clock.js';
import type { ProgressEventBody } from './events.js';
import { createProgressHub } from './progress-hub.js';
import { isProgressReporter, type ProgressReporter } from './progress-reporter.js';
import { createRecordingReporter } from './recording-reporter.js';

const recorder = createRecordingReporter;

describe('createReporterSink', () => {
  it('maps events to the seven methods and ignores the rest', () => {
    const { reporter, calls } = recorder();
    const hub = createProgressHub({ runId: 'r' });
    hub.add(createReporterSink(reporter));
    const bodies: ProgressEventBody[] = [
      { type: 'run.started', agentName: 'demo', task: 'Summarize the README file' },
      { type: 'iteration', index: 0, max: 10 },
      { type: 'step.started', step: 'llm-1' },
      { type: 'tool.executing', toolName: 'file_read' },
      { type: 'tool.completed', toolName: 'file_read', durationMs: 3, ok: true },
      { type: 'tool.completed', toolName: 'grep', durationMs: 3, ok: false },
      { type: 'progress', percent: 45, message: 'Analyzing input' },
      { type: 'progress', percent: 50 },
      { type: 'iteration', index: 1, max: 10 },
      { type: 'run.finished', durationMs: 10, outcome: 'completed', summary: 'finished after 2 iteration(s)' },
    ];
    for (const b of bodies) hub.emit(b);
    expect(calls).toEqual([
      'onStart(Summarize the README file)',
      'onIteration(0, 10)',
      'onToolStart(file_read)',
      'onToolDone(file_read, ok)',
      'onToolDone(grep, error)',
      'onProgress(45, Analyzing input)',
      'onProgress(50, )',
      'onIteration(1, 10)',
      'onComplete(finished after 2 iteration(s))',
    ]);
  });

  it('uses agentName without a task, and maps errors and cancellation to onError', () => {
    const { reporter, calls } = recorder();
    const sink = createReporterSink(reporter);
    sink({ type: 'run.started', agentName: 'demo', runId: 'r', seq: 1, ts: 0 });
    sink({ type: 'run.error', error: 'Provider timeout', runId: 'r', seq: 2, ts: 0 });
    sink({ type: 'run.cancelled', reason: 'user pressed Ctrl-C', runId: 'r', seq: 3, ts: 0 });
    sink({ type: 'run.cancelled', runId: 'r', seq: 4, ts: 0 });
    sink({ type: 'run.finished', durationMs: 1, outcome: 'limit', runId: 'r', seq: 5, ts: 0 });
    expect(calls).toEqual([
      'onStart(demo)',
      'onError(Provider timeout)',
      'onError(cancelled: user pressed Ctrl-C)',
      'onError(cancelled: no reason given)',
      'onComplete(stopped at a limit)',
    ]);
  });

  it("hands an async reporter's rejection to the hub instead of leaving it unhandled", async () => {
    const errors: unknown[] = [];
    const hub = createProgressHub({ runId: 'r', onInternalError: (e) => errors.push(e) });
    const { reporter } = recorder();
    // An implementation may be async even though the interface says void.
    const onStart = (() => Promise.reject(new Error('async boom'))) as unknown as ProgressReporter['onStart'];
    hub.add({ ...reporter, onStart });
    hub.emit({ type: 'run.started', agentName: 'a' });
    await hub.flush();
    expect(errors).toEqual([new Error('async boom')]);
    expect(hub.stats().sinkErrors).toBe(1);
  });
});

describe('createReporterEvents', () => {
  it('turns reporter calls into events with measured durations', () => {
    let t = 0;
    const bodies: ProgressEventBody[] = [];
    const reporter = createReporterEvents((b) => bodies.push(b), { agentName: 'legacy', clock: { ...systemClock, now: () => (t += 10) } });
    expect(isProgressReporter(reporter)).toBe(true);
    reporter.onStart('Summarize');
    reporter.onIteration(0, 10);
    reporter.onToolStart('file_read');
    reporter.onToolDone('file_read', 'ok');
    reporter.onProgress(45, 'Analyzing input');
    reporter.onProgress(Number.NaN, 'ignored');
    reporter.onProgress(140, '');
    reporter.onComplete('finished after 1 iteration(s)');
    reporter.onError('cancelled: stop');
    reporter.onError('boom');
    expect(bodies).toEqual([
      { type: 'run.started', agentName: 'legacy', task: 'Summarize' },
      { type: 'iteration', index: 0, max: 10 },
      { type: 'tool.executing', toolName: 'file_read' },
      { type: 'tool.completed', toolName: 'file_read', durationMs: 10, ok: true, preview: 'ok' },
      { type: 'progress', percent: 45, message: 'Analyzing input' },
      { type: 'progress', percent: 100 },
      { type: 'run.finished', durationMs: 30, outcome: 'completed', summary: 'finished after 1 iteration(s)' },
      { type: 'run.cancelled', reason: 'stop' },
      { type: 'run.error', error: 'boom' },
    ]);
  });

  it('round-trips the seven calls through events and back', () => {
    const { reporter, calls } = recorder();
    const hub = createProgressHub({ runId: 'r' });
    hub.add(reporter);
    const bridge = createReporterEvents((b) => hub.emit(b));
    bridge.onStart('Summarize the README file');
    bridge.onIteration(0, 10);
    bridge.onToolStart('file_read');
    bridge.onToolDone('file_read', 'ok');
    bridge.onProgress(45, 'Analyzing input');
    bridge.onIteration(1, 10);
    bridge.onComplete('finished after 2 iteration(s)');
    expect(calls).toEqual([
      'onStart(Summarize the README file)',
      'onIteration(0, 10)',
      'onToolStart(file_read)',
      'onToolDone(file_read, ok)',
      'onProgress(45, Analyzing input)',
      'onIteration(1, 10)',
      'onComplete(finished after 2 iteration(s))',
    ]);
  });
});

describe('isProgressReporter', () => {
  it('checks the seven methods structurally', () => {
    const { reporter } = recorder();
    expect(isProgressReporter(reporter)).toBe(true);
    expect(isProgressReporter({ ...reporter, onError: 'nope' })).toBe(false);
    expect(isProgressReporter(null)).toBe(false);
    expect(isProgressReporter(42)).toBe(false);
    class Custom {
      onStart(): void {}
      onProgress(): void {}
      onToolStart(): void {}
      onToolDone(): void {}
      onIteration(): void {}
      onComplete(): void {}
      onError(): void {}
    }
    expect(isProgressReporter(new Custom())).toBe(true);
  });
});
