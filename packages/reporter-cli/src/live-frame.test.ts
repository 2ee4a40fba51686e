import fc from 'fast-check';
import pc from 'picocolors';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { renderLiveFrame } from './live-frame.js';
import { LiveState } from './live-state.js';

const plain = pc.createColors(false);
const T0 = 1_000_000;

function midRun(): LiveState {
  const s = new LiveState(T0, 3, 3);
  s.task = 'Summarize the README file';
  s.iteration = { index: 1, max: 10 };
  s.progress(45, 'Analyzing input', T0 + 2_000, 20_000);
  s.toolStarted('file_read', 'c1', T0);
  s.toolFinished('file_read', 'c1', true, T0 + 1_234, undefined, '# headway');
  s.toolStarted('web_search', 'c2', T0 + 3_000);
  s.notice('warning', 'iteration limit approaching (8 of 10)');
  return s;
}

describe('renderLiveFrame', () => {
  it('shows the bar, percent, elapsed, ETA counting down, iteration, tools and warnings', () => {
    expect(renderLiveFrame(midRun(), { now: T0 + 4_200, width: 80, colors: plain, maxRunning: 3 })).toMatchInlineSnapshot(`
      "⠹ Summarize the README file
        ██████████░░░░░░░░░░░░░░  45% · 4s · ETA 17s · iteration 2/10
        Analyzing input
        ✓ file_read 1.2s  # headway
        ⠴ web_search 1.2s
        ⚠ iteration limit approaching (8 of 10)"
    `);
  });

  it('leaves a final summary without the spinner or running tools', () => {
    const s = midRun();
    s.toolFinished('web_search', 'c2', false, T0 + 5_000);
    s.finish({ kind: 'completed', text: 'finished after 2 iteration(s)', durationMs: 6_500 });
    expect(renderLiveFrame(s, { now: T0 + 9_000, width: 80, colors: plain, maxRunning: 3 })).toMatchInlineSnapshot(`
      "✔ Summarize the README file
        ████████████████████████ 100% · 6s · iteration 2/10
        ⚠ iteration limit approaching (8 of 10)
        Complete: finished after 2 iteration(s) · 2 tool call(s), 1 failed"
    `);
  });

  it('gives an ETA only when one was reported, and drops it when a later update has none', () => {
    const s = midRun();
    expect(renderLiveFrame(s, { now: T0 + 2_000, width: 80, colors: plain, maxRunning: 3 })).toContain('ETA 20s');
    expect(renderLiveFrame(s, { now: T0 + 30_000, width: 80, colors: plain, maxRunning: 3 })).toContain('ETA <1s');
    s.progress(50, 'x', T0 + 3_000);
    expect(renderLiveFrame(s, { now: T0 + 3_000, width: 80, colors: plain, maxRunning: 3 })).not.toContain('ETA');
  });

  it('marks a guessed percent with ~ and shows no ETA for it; names the plan from the second on', () => {
    const s = new LiveState(T0, 3, 3);
    s.task = 'Fix the issues';
    s.progress(12, 'Reading', T0 + 1_000, 20_000, { lowMs: 10_000, highMs: 40_000 }, { guess: true });
    expect(renderLiveFrame(s, { now: T0 + 2_000, width: 80, colors: plain, maxRunning: 3 }).split('\n')[1]).toBe(
      '  ██░░░░░░░░░░░░░░░░░░░░░░ ~ 12% · 2s',
    );
    s.progress(56, 'Reading', T0 + 3_000, 20_000, undefined, { plan: 2 });
    expect(renderLiveFrame(s, { now: T0 + 3_000, width: 80, colors: plain, maxRunning: 3 }).split('\n')[1]).toBe(
      '  █████████████░░░░░░░░░░░  56% · 3s · ETA 20s · plan 2',
    );
  });

  it('lists at most maxRunning running tools, then how many more', () => {
    const s = new LiveState(T0, 3, 3);
    for (const name of ['a', 'b', 'c', 'd', 'e']) s.toolStarted(name, undefined, T0);
    const frame = renderLiveFrame(s, { now: T0 + 100, width: 80, colors: plain, maxRunning: 2 });
    expect(frame.split('\n').slice(2)).toEqual(['  ⠙ a 100ms', '  ⠙ b 100ms', '  +3 more running']);
  });

  it('never draws a line wider than the terminal (the final outcome excepted), colours or not', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme' }),
        fc.string(),
        fc.integer({ min: 1, max: 200 }),
        fc.boolean(),
        (task, tool, width, color) => {
          const s = new LiveState(T0, 3, 3);
          s.task = task;
          s.progress(33, tool, T0);
          s.toolStarted(tool, undefined, T0);
          s.toolFinished(tool, undefined, true, T0 + 5, undefined, task);
          s.toolStarted(`${tool}2`, undefined, T0);
          s.notice('limit', task);
          const frame = renderLiveFrame(s, { now: T0 + 10, width, colors: pc.createColors(color), maxRunning: 3 });
          for (const line of frame.split('\n')) expect(stringWidth(line)).toBeLessThanOrEqual(width);
        },
      ),
    );
  });

  it('keeps only the latest notice of a key and the last few finished tools', () => {
    const s = new LiveState(T0, 2, 3);
    s.notice('info', 'checkpoint saved: ck-1', 'checkpoint');
    s.notice('info', 'checkpoint saved: ck-2', 'checkpoint');
    for (const name of ['t1', 't2', 't3']) s.toolFinished(name, undefined, true, T0, 10);
    expect(s.notices.map((n) => n.text)).toEqual(['checkpoint saved: ck-2']);
    expect(s.finished.map((t) => t.name)).toEqual(['t2', 't3']);
    expect(s.toolCalls).toBe(3);
  });
});
