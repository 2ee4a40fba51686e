// The seven reporter methods called once each, as a run would. Part of the `@headway/protocol/testing` entry.
import type { ProgressReporter } from './progress-reporter.js';

/**
 * Calls each of the seven {@link ProgressReporter} methods as a two-iteration run would:
 * start, iteration 0, progress 45 %, a `file_read` tool start and done, iteration 1, complete,
 * then an error. A reporter's test asserts exactly what it made of them.
 *
 * @example
 * ```ts
 * callSevenMethods(reporter);
 * expect(text()).toMatchInlineSnapshot();
 * ```
 */
export function callSevenMethods(reporter: ProgressReporter): void {
  reporter.onStart('Summarize the README file');
  reporter.onIteration(0, 10);
  reporter.onProgress(45, 'Analyzing input');
  reporter.onToolStart('file_read');
  reporter.onToolDone('file_read', 'ok');
  reporter.onIteration(1, 10);
  reporter.onComplete('finished after 2 iteration(s)');
  reporter.onError('Provider timeout');
}
