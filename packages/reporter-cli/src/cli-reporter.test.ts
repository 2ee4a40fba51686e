import {
  ManualClock,
  createProgressHub,
  isProgressReporter,
  type Clock,
  type ProgressReport,
  type ProgressReporter,
  type SinkLike,
} from '@headway/protocol';
import stringWidth from 'string-width';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { CLIReporter, type CLIReporterOptions } from './cli-reporter.js';
import { RecordingStream, stripAnsi } from './fake-terminal.test-util.js';
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

  it('writes a guessed percent as ~12% without an ETA, and names the plan from the second on', () => {
    const { stream, reporter } = plain();
    const hub = createProgressHub({ runId: 'r1', clock: new ManualClock() });
    hub.add(reporter);
    hub.emit({ type: 'progress', percent: 12, message: 'Reading', guess: true });
    hub.emit({ type: 'progress', percent: 56, plan: 2, etaMs: 20_000 });
    expect(stream.chunks).toEqual(['  [progress] ~12% Reading\n', '  [progress] 56% (plan 2) (ETA 20s)\n']);
  });

  it('adds durations, previews, ETA, limits and the report from the event stream', () => {
    const { stream, reporter } = plain();
    const hub = createProgressHub({ runId: 'r1', clock: new ManualClock() });
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
    hub.emit({ type: 'wind-down.started', reason: 'time budget used', graceIterations: 2 });
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
        [progress] Warning: winding down: time budget used (2 grace iteration(s) left to write the report)
        [progress] Limit: time limit reached (5m 00s of 5m 00s)
        [progress] Stopped at a limit: see the progress report (1m 05s, 1200 tokens)
      "
    `);
  });

  it('says when the run looks stuck and when it moves again', () => {
    const { stream, reporter } = plain();
    const hub = createProgressHub({ runId: 'r1', clock: new ManualClock() });
    hub.add(reporter);
    const evidence = { toolCallIds: ['c1', 'c2', 'c3', 'c4', 'c5'], subject: 'ls src/work', repeats: 5 };
    hub.emit({ type: 'stall.detected', kind: 'repeated-call', evidence, since: 2 });
    hub.emit({ type: 'stall.cleared', kind: 'repeated-call', since: 2 });
    hub.emit({
      type: 'stall.detected',
      kind: 'ping-pong',
      evidence: { ...evidence, subject: 'read a.ts ↔ write a.ts', repeats: 4 },
      since: 7,
    });
    expect(stream.text).toMatchInlineSnapshot(`
      "  [progress] Warning: stuck? ls src/work 5× with the same result
        [progress] Note: moving again: no longer stuck
        [progress] Warning: stuck? read a.ts ↔ write a.ts 4× with unchanged results
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

      **Stats:** 10 iterations · 4 tool calls · 65000 ms elapsed (1m 05s) · stopped: max-iterations (the iteration limit was reached) · written by: fallback

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

// eslint-disable-next-line no-control-regex -- looking for colour sequences
const SGR = /\u001b\[[0-9;]*m/;

function live(options: CLIReporterOptions = {}) {
  const stream = new RecordingStream({ isTTY: true, columns: 100, rows: 30 });
  const clock = new ManualClock({ start: 1_000_000 });
  const reporter = new CLIReporter({ stream, env: {}, clock, ...options });
  return { stream, clock, reporter };
}

describe('CLIReporter mode selection', () => {
  const tty = () => new RecordingStream({ isTTY: true, columns: 80 });
  it.each([
    [{ isTTY: true, env: {} }, 'live'],
    [{ isTTY: false, env: {} }, 'plain'],
    [{ isTTY: true, env: { CI: 'true' } }, 'plain'],
    [{ isTTY: true, env: { CI: '1' } }, 'plain'],
    [{ isTTY: true, env: { CI: 'false' } }, 'live'],
    [{ isTTY: true, env: { CI: '' } }, 'live'],
    [{ isTTY: true, env: { TERM: 'dumb' } }, 'plain'],
  ] as const)('auto with %o is %s', ({ isTTY, env }, expected) => {
    const stream = new RecordingStream({ isTTY });
    expect(new CLIReporter({ stream, env }).mode).toBe(expected);
  });

  it('an explicit mode wins over the terminal and the environment', () => {
    expect(new CLIReporter({ stream: tty(), env: {}, mode: 'plain' }).mode).toBe('plain');
    expect(new CLIReporter({ stream: new RecordingStream(), env: { CI: 'true' }, mode: 'live' }).mode).toBe('live');
  });
});

describe('CLIReporter live mode', () => {
  it('draws one block, animates it with an unref’d timer and stops the timer at the end', () => {
    const manual = new ManualClock({ start: 1_000_000 });
    let unrefs = 0;
    // The manual clock's handles, wrapped in what Node's timers return, to see the unref.
    const clock: Clock = {
      now: () => manual.now(),
      setTimeout: (fn, ms) => ({ id: manual.setTimeout(fn, ms), unref: () => (unrefs += 1) }),
      clearTimeout: (handle) => {
        manual.clearTimeout((handle as { id: unknown }).id);
      },
    };
    const { stream, reporter } = live({ clock });
    reporter.onStart('Summarize the README file');
    expect(manual.pendingTimers).toBe(1);
    expect(unrefs).toBe(1);
    reporter.onIteration(0, 10);
    reporter.onToolStart('file_read');
    const before = stream.chunks.length;
    manual.advanceSync(80);
    expect(stream.chunks.length).toBeGreaterThan(before); // the spinner moved
    expect(stripAnsi(stream.chunks.at(-1)!)).toContain('⠙');
    reporter.onToolDone('file_read', 'ok');
    reporter.onComplete('finished after 1 iteration(s)');
    expect(manual.pendingTimers).toBe(0);
    const text = stripAnsi(stream.text);
    expect(text).toContain('Summarize the README file');
    expect(text).toContain('Complete: finished after 1 iteration(s) · 1 tool call(s)');
    expect(text).toContain('100%');
  });

  it('notes the latest saved checkpoint only when verbose', () => {
    const checkpoint = (id: string, seq: number) =>
      ({ type: 'checkpoint.saved', runId: 'r', seq, ts: 0, checkpointId: id, iteration: seq }) as const;
    for (const verbose of [false, true]) {
      const { stream, reporter } = live({ color: false, verbose });
      reporter.onStart('task');
      reporter.handle(checkpoint('ck-1', 1));
      reporter.handle(checkpoint('ck-2', 2));
      reporter.onComplete('done');
      const text = stripAnsi(stream.text);
      expect(text.includes('checkpoint saved: ck-2')).toBe(verbose);
      expect(text).toContain('Complete: done');
    }
  });

  it('hides the cursor while drawing and shows it again when done', () => {
    const { stream, reporter } = live();
    reporter.onStart('t');
    expect(stream.chunks[0]).toBe('\u001b[?25l');
    reporter.onError('Provider timeout');
    expect(stream.chunks.at(-1)).toBe('\u001b[?25h');
    expect(stripAnsi(stream.text)).toContain('Error: Provider timeout');
  });

  it('log() prints above the block: erase the block, the host line, then the block again', () => {
    const { stream, reporter } = live({ color: false });
    reporter.onStart('task');
    reporter.onProgress(30, 'reading');
    const from = stream.chunks.length;
    reporter.log('host says %s', 'hello');
    const after = stream.chunks.slice(from).join('');
    const hostAt = after.indexOf('host says hello\n');
    expect(hostAt).toBeGreaterThan(0);
    expect(after.slice(0, hostAt)).toContain('\u001b[2K'); // the old block was erased first
    expect(stripAnsi(after.slice(hostAt))).toContain('30%'); // and redrawn below
  });

  it('prints the report above the block and ends with the limit summary', () => {
    const { stream, reporter } = live({ color: false });
    const hub = createProgressHub({ runId: 'r' });
    hub.add(reporter);
    hub.emit({ type: 'run.started', agentName: 'demo', task: 'Summarize' });
    hub.emit({ type: 'wind-down.started', reason: 'time budget used', graceIterations: 2 });
    hub.emit({
      type: 'report.generated',
      report: {
        task: 'Summarize',
        reason: 'time-budget',
        completedWork: ['Read README.md'],
        keyFindings: [],
        attemptedInconclusive: [],
        remaining: [],
        suggestedNextSteps: [],
        stats: { iterations: 3, toolCalls: 1, elapsedMs: 1000 },
        generatedBy: 'model',
      },
    });
    hub.emit({ type: 'run.finished', durationMs: 1000, outcome: 'limit', summary: 'stopped after 3 iteration(s)' });
    const text = stripAnsi(stream.text);
    expect(text).toContain('## PROGRESS REPORT');
    expect(text).toContain('⚠ winding down: time budget used (2 grace iteration(s) left to write the report)');
    expect(text.indexOf('## PROGRESS REPORT')).toBeLessThan(text.indexOf('Stopped at a limit: stopped after 3 iteration(s)'));
  });

  it('shows one stall line in the live block: the warning while stuck, replaced when it clears', () => {
    const { stream, clock, reporter } = live({ color: false });
    const hub = createProgressHub({ runId: 'r' });
    hub.add(reporter);
    hub.emit({ type: 'run.started', agentName: 'demo', task: 'Tidy' });
    const evidence = { toolCallIds: ['c1'], subject: 'ls src/work', repeats: 5 };
    hub.emit({ type: 'stall.detected', kind: 'repeated-call', evidence, since: 0 });
    clock.advanceSync(1000);
    const stuck = stripAnsi(stream.text);
    expect(stuck).toContain('⚠ stuck? ls src/work 5× with the same result');
    const from = stream.text.length;
    hub.emit({ type: 'stall.cleared', kind: 'repeated-call', since: 0 });
    clock.advanceSync(1000);
    const after = stripAnsi(stream.text.slice(from));
    expect(after).toContain('ℹ moving again: no longer stuck');
    expect(after).not.toContain('stuck?');
  });

  it('uses tool durations and previews from events, matched by call id', () => {
    const { stream, clock, reporter } = live({ color: false });
    reporter.handle({ type: 'run.started', runId: 'r', seq: 1, ts: 0, agentName: 'a' });
    reporter.handle({ type: 'tool.executing', runId: 'r', seq: 2, ts: 0, toolName: 'grep', toolCallId: 'x' });
    reporter.handle({ type: 'tool.executing', runId: 'r', seq: 3, ts: 0, toolName: 'grep', toolCallId: 'y' });
    clock.advanceSync(1000);
    reporter.handle({
      type: 'tool.completed',
      runId: 'r',
      seq: 4,
      ts: 0,
      toolName: 'grep',
      toolCallId: 'y',
      durationMs: 2500,
      ok: true,
      preview: '3 matches',
    });
    expect(stripAnsi(stream.text)).toContain('✓ grep 2.5s  3 matches');
  });

  it('honours NO_COLOR, FORCE_COLOR and the color option', () => {
    const run = (options: CLIReporterOptions) => {
      const { stream, reporter } = live(options);
      reporter.onStart('t');
      reporter.onProgress(50, 'half');
      reporter.onComplete('done');
      return stream.text;
    };
    expect(run({})).toMatch(SGR);
    expect(run({ env: { NO_COLOR: '1' } })).not.toMatch(SGR);
    expect(run({ env: { NO_COLOR: '1', FORCE_COLOR: '1' } })).not.toMatch(SGR);
    expect(run({ color: false })).not.toMatch(SGR);
    const piped = new RecordingStream({ isTTY: false });
    const forced = new CLIReporter({ stream: piped, mode: 'live', env: { FORCE_COLOR: '1' }, clock: new ManualClock() });
    forced.onStart('t');
    forced.onComplete('done');
    expect(piped.text).toMatch(SGR);
  });

  it('fits the block to the terminal width and redraws on resize', () => {
    const { stream, reporter } = live({ color: false });
    reporter.onStart('a task whose description is much longer than forty columns of terminal');
    reporter.onToolStart('some_tool_with_a_long_name_that_goes_on_and_on');
    expect(stream.listenerCount('resize')).toBe(1);
    stream.columns = 40;
    const from = stream.chunks.length;
    stream.emit('resize');
    const redrawn = stripAnsi(stream.chunks.slice(from).join(''));
    const lines = redrawn.split('\n').filter((l) => l.trim() !== '');
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(stringWidth(line)).toBeLessThanOrEqual(39);
    expect(redrawn).toContain('…');
    reporter.onComplete('done');
    expect(stream.listenerCount('resize')).toBe(0);
  });

  it('after the terminal narrows, erases every row the reflowed old block now covers', () => {
    const { stream, clock, reporter } = live({ color: false });
    reporter.onStart('x'.repeat(60)); // title: 62 columns
    clock.advanceSync(40); // past the redraw floor, before the first tick
    reporter.onToolStart('t'); // the block: title, bar line, tool line
    const bar = stripAnsi(stream.text)
      .split('\n')
      .find((l) => l.includes('%'))!;
    stream.columns = 30;
    const from = stream.chunks.length;
    stream.emit('resize');
    const rows = Math.ceil(62 / 30) + Math.ceil(bar.length / 30) + 1 + 1; // + the cursor's empty line
    const erase = stream.chunks.slice(from).join('');
    // eraseLines(n) erases n lines: n "erase line" sequences.
    expect(erase.split('\u001b[2K').length - 1).toBe(rows);
  });

  it('asks a TTY for its size at each draw rather than trusting a stale columns', () => {
    const { stream, reporter } = live({ color: false });
    Object.assign(stream, { getWindowSize: (): [number, number] => [20, 30] });
    reporter.onStart('a task longer than twenty columns');
    const lines = stripAnsi(stream.text)
      .split('\n')
      .filter((l) => l.trim() !== '');
    for (const line of lines) expect(stringWidth(line)).toBeLessThanOrEqual(19);
  });

  it('coalesces a flood of updates into at most one draw per tick', () => {
    const { stream, clock, reporter } = live({ color: false });
    reporter.onStart('t');
    const from = stream.chunks.length;
    for (let i = 0; i < 1000; i++) reporter.onProgress(i / 20, 'x');
    expect(stream.chunks.length - from).toBeLessThanOrEqual(1);
    clock.advanceSync(80);
    expect(stripAnsi(stream.chunks.slice(from).join(''))).toContain('49%');
  });

  it('stop() leaves the block and releases the timer; a new onStart draws a new block', () => {
    const { stream, clock, reporter } = live({ color: false });
    reporter.onStart('first');
    reporter.stop();
    reporter.stop();
    expect(clock.pendingTimers).toBe(0);
    reporter.onStart('second');
    expect(clock.pendingTimers).toBe(1);
    reporter.onComplete('ok');
    expect(stripAnsi(stream.text)).toContain('second');
  });
});
