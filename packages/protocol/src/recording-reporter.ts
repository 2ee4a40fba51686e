import type { ProgressReporter } from './progress-reporter.js';

/**
 * A seven-method reporter that records each call as a string (`onToolDone(file_read, ok)`), for
 * tests that assert which calls a sink or bridge made, in order.
 *
 * @example
 * ```ts
 * const { reporter, calls } = createRecordingReporter();
 * hub.add(reporter);
 * hub.emit({ type: 'tool.executing', toolName: 'file_read' });
 * expect(calls).toEqual(['onToolStart(file_read)']);
 * ```
 */
export function createRecordingReporter(): { reporter: ProgressReporter; calls: string[] } {
  const calls: string[] = [];
  const reporter: ProgressReporter = {
    onStart: (task) => calls.push(`onStart(${task})`),
    onProgress: (pct, label) => calls.push(`onProgress(${pct}, ${label})`),
    onToolStart: (name) => calls.push(`onToolStart(${name})`),
    onToolDone: (name, summary) => calls.push(`onToolDone(${name}, ${summary})`),
    onIteration: (i, max) => calls.push(`onIteration(${i}, ${max})`),
    onComplete: (summary) => calls.push(`onComplete(${summary})`),
    onError: (error) => calls.push(`onError(${error})`),
  };
  return { reporter, calls };
}
