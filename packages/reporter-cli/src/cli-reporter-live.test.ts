import { ManualClock, createProgressHub, type Clock } from '@headway/protocol';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { CLIReporter, type CLIReporterOptions } from './cli-reporter.js';
import { RecordingStream, stripAnsi } from './fake-terminal.test-util.js';

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
    hub.emit({ type: 'wind-down.started', reason: 'time budget used', bonusSteps: 2 });
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
    expect(text).toContain('⚠ winding down: time budget used (2 bonus step(s) left to write the report)');
    expect(text.indexOf('## PROGRESS REPORT')).toBeLessThan(text.indexOf('Stopped at a limit: stopped after 3 iteration(s)'));
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

  it('still animates on the deprecated timers and now options', () => {
    const stream = new RecordingStream({ isTTY: true, columns: 100, rows: 30 });
    const active = new Map<number, () => void>();
    let next = 0;
    const timers = {
      setInterval: (callback: () => void) => {
        active.set(++next, callback);
        return next;
      },
      clearInterval: (handle: unknown) => active.delete(handle as number),
    };
    let time = 1_000_000;
    const reporter = new CLIReporter({ stream, env: {}, color: false, timers, now: () => time });
    reporter.onStart('t');
    const before = stream.chunks.length;
    time += 80;
    for (const callback of [...active.values()]) callback();
    expect(stream.chunks.length).toBeGreaterThan(before);
    expect(active.size).toBe(1); // the tick re-armed
    reporter.onComplete('ok');
    expect(active.size).toBe(0);
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
