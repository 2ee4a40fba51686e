import { createProgressHub, isProgressReporter, type ProgressReport, type ProgressReporter, type SinkLike } from '@headway/protocol';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { CLIReporter, type CLIReporterOptions } from './cli-reporter.js';
import { RecordingStream } from './fake-terminal.test-util.js';
import type { TerminalStream } from './terminal-stream.js';

function plain() {
  const stream = new RecordingStream({ isTTY: false });
  const reporter = new CLIReporter({ stream, env: {} });
  return { stream, reporter };
}

const report: ProgressReport = {
  task: 'Summarize the README file',
  reason: 'max-iterations',
  completedWork: ['Read README.md (2 KB)'],
  keyFindings: ['The project is a monorepo'],
  attemptedInconclusive: [],
  remaining: ['Write the summary'],
  suggestedNextSteps: ['Summarize section by section'],
  stats: { iterations: 10, toolCalls: 4, elapsedMs: 65_000 },
  generatedBy: 'fallback',
};

describe('CLIReporter plain mode', () => {
  it('prints exactly the documented lines for the seven methods', () => {
    const { stream, reporter } = plain();
    expect(reporter.mode).toBe('plain');
    reporter.onStart('Summarize the README file');
    reporter.onIteration(0, 10);
    reporter.onToolStart('file_read');
    reporter.onToolDone('file_read', 'ok');
    reporter.onIteration(1, 10);
    reporter.onComplete('finished after 2 iteration(s)');
    reporter.onProgress(45, 'Analyzing input');
    reporter.onError('Provider timeout');
    expect(stream.text).toBe(
      '  [progress] Starting: Summarize the README file\n' +
        '  [progress] Iteration 1/10\n' +
        '  [progress] Tool: file_read...\n' +
        '  [progress] Tool: file_read done \u2014 ok\n' +
        '  [progress] Iteration 2/10\n' +
        '  [progress] Complete: finished after 2 iteration(s)\n' +
        '  [progress] 45% Analyzing input\n' +
        '  [progress] Error: Provider timeout\n',
    );
  });

  it('writes one chunk per line, so lines from two writers never interleave mid-line', () => {
    const { stream, reporter } = plain();
    reporter.onStart('a');
    reporter.onToolStart('b');
    expect(stream.chunks).toEqual(['  [progress] Starting: a\n', '  [progress] Tool: b...\n']);
  });

  it('shows whole percents, never 100 before it is reached, and no trailing space without a label', () => {
    const { stream, reporter } = plain();
    reporter.onProgress(99.7, '');
    reporter.onProgress(12.5, 'x');
    reporter.onProgress(Number.NaN, 'odd');
    reporter.onProgress(140, 'over');
    expect(stream.chunks).toEqual(['  [progress] 99%\n', '  [progress] 12% x\n', '  [progress] ?% odd\n', '  [progress] 100% over\n']);
  });

  it('neutralises escape sequences and line breaks in untrusted text', () => {
    const { stream, reporter } = plain();
    reporter.onToolStart('evil\u001b[2J\u001b]0;pwned\u0007');
    reporter.onError('line one\nline two');
    expect(stream.chunks).toEqual(['  [progress] Tool: evil\uFFFD[2J\uFFFD]0;pwned\uFFFD...\n', '  [progress] Error: line one line two\n']);
  });

  it('adds durations, previews, ETA, limits and the report from the event stream', () => {
    const { stream, reporter } = plain();
    const hub = createProgressHub({ runId: 'r1', now: () => 0 });
    hub.add(reporter);
    hub.emit({ type: 'run.started', agentName: 'demo', task: 'Summarize the README file' });
    hub.emit({ type: 'iteration', index: 0, max: 10 });
    hub.emit({ type: 'thinking', content: 'hmm' });
    hub.emit({ type: 'tool.executing', toolName: 'file_read', toolCallId: 'c1', args: { path: 'README.md' } });
    hub.emit({
      type: 'tool.completed',
      toolName: 'file_read',
      toolCallId: 'c1',
      durationMs: 1234,
      ok: true,
      preview: '# headway\n\nmakes agent loops legible',
    });
    hub.emit({ type: 'tool.completed', toolName: 'shell', durationMs: 80, ok: false });
    hub.emit({ type: 'progress', percent: 45, message: 'Analyzing input', etaMs: 20_000 });
    hub.emit({ type: 'intermediate.result', content: 'draft: three sections' });
    hub.emit({ type: 'limit.approaching', limit: 'iterations', used: 8, max: 10 });
    hub.emit({ type: 'limit.approaching', limit: 'cost', used: 0.8, max: 1 });
    hub.emit({ type: 'timeout.extended', byMs: 120_000, totalBudgetMs: 420_000 });
    hub.emit({ type: 'wind-down.started', reason: 'time budget used', bonusSteps: 2 });
    hub.emit({ type: 'limit.reached', limit: 'time', used: 300_000, max: 300_000 });
    hub.emit({ type: 'checkpoint.saved', checkpointId: 'ck-3', iteration: 3 });
    hub.emit({ type: 'text.delta', text: 'partial' });
    hub.emit({ type: 'run.finished', durationMs: 65_000, outcome: 'limit', tokenCount: 1200 });
    expect(stream.text).toMatchInlineSnapshot(`
      "  [progress] Starting: Summarize the README file
        [progress] Iteration 1/10
        [progress] Tool: file_read...
        [progress] Tool: file_read done — ok in 1.2s: # headway makes agent loops legible
        [progress] Tool: shell done — error in 80ms
        [progress] 45% Analyzing input (ETA 20s)
        [progress] Result: draft: three sections
        [progress] Warning: iteration limit approaching (8 of 10)
        [progress] Warning: cost limit approaching ($0.80 of $1.00)
        [progress] Note: time budget extended by 2m 00s (now 7m 00s)
        [progress] Warning: winding down: time budget used (2 bonus step(s) left to write the report)
        [progress] Limit: time limit reached (5m 00s of 5m 00s)
        [progress] Stopped at a limit: see the progress report (1m 05s, 1200 tokens)
      "
    `);
  });

  it('shows saved checkpoints only when verbose: the option, or HEADWAY_VERBOSE', () => {
    const checkpoint = { type: 'checkpoint.saved', runId: 'r', seq: 1, ts: 0, checkpointId: 'ck-3', iteration: 3 } as const;
    const print = (options: CLIReporterOptions) => {
      const stream = new RecordingStream({ isTTY: false });
      new CLIReporter({ stream, env: {}, ...options }).handle(checkpoint);
      return stream.text;
    };
    expect(print({})).toBe('');
    expect(print({ env: { HEADWAY_VERBOSE: '0' } })).toBe('');
    expect(print({ verbose: true })).toBe('  [progress] Checkpoint saved: ck-3\n');
    expect(print({ env: { HEADWAY_VERBOSE: '1' } })).toBe('  [progress] Checkpoint saved: ck-3\n');
    expect(print({ env: { HEADWAY_VERBOSE: '1' }, verbose: false })).toBe('');
  });

  it('prints the progress report as Markdown with its six sections', () => {
    const { stream, reporter } = plain();
    reporter.handle({ type: 'report.generated', runId: 'r', seq: 1, ts: 0, report });
    expect(stream.text).toMatchInlineSnapshot(`
      "
      ## PROGRESS REPORT

      **Stats:** 10 iterations · 4 tool calls · 65000 ms elapsed (1m 5s) · stopped: max-iterations (the iteration limit was reached) · written by: fallback

      ### Task

      Summarize the README file

      ### Completed Work

      - Read README.md (2 KB)

      ### Key Findings

      - The project is a monorepo

      ### Attempted but Inconclusive

      _None._

      ### Not Started / Remaining

      - Write the summary

      ### Suggested Next Steps

      - Summarize section by section

      "
    `);
  });

  it('ends with the same lines as the seven methods for success, errors and cancellation', () => {
    const { stream, reporter } = plain();
    reporter.handle({
      type: 'run.finished',
      runId: 'r',
      seq: 1,
      ts: 0,
      durationMs: 2500,
      outcome: 'completed',
      summary: 'finished after 2 iteration(s)',
    });
    reporter.handle({ type: 'run.error', runId: 'r', seq: 1, ts: 0, error: 'Provider timeout' });
    reporter.handle({ type: 'run.cancelled', runId: 'r', seq: 1, ts: 0 });
    expect(stream.chunks).toEqual([
      '  [progress] Complete: finished after 2 iteration(s) (2.5s)\n',
      '  [progress] Error: Provider timeout\n',
      '  [progress] Cancelled: no reason given\n',
    ]);
  });

  it('is a ProgressReporter and a hub sink, and takes process.stderr as its stream', () => {
    expectTypeOf<CLIReporter>().toExtend<ProgressReporter>();
    expectTypeOf<CLIReporter>().toExtend<SinkLike>();
    expectTypeOf(process.stderr).toExtend<TerminalStream>();
    expectTypeOf(process.stdout).toExtend<TerminalStream>();
    expect(isProgressReporter(new CLIReporter({ stream: new RecordingStream(), env: {} }))).toBe(true);
  });

  it('log() writes the host text as is, formatted like console.log', () => {
    const { stream, reporter } = plain();
    reporter.log('found %d files in', 3, 'src');
    expect(stream.text).toBe('found 3 files in src\n');
  });
});
