import pc from 'picocolors';
import { describe, expect, it } from 'vitest';
import { formatEtaRange } from './format-eta-range.js';
import { MAX_PLAN_LINES, renderLiveFrame } from './live-frame.js';
import { LiveState, type LivePlanItem } from './live-state.js';
import { plainEventText } from './plain-lines.js';

const plain = pc.createColors(false);
const T0 = 1_000_000;
const frame = (s: LiveState, now = T0 + 1_000): string => renderLiveFrame(s, { now, width: 80, colors: plain, maxRunning: 3 });

function items(...statuses: LivePlanItem['status'][]): LivePlanItem[] {
  return statuses.map((status, i) => ({ text: `Step ${i + 1}`, status }));
}

describe('the plan in the live view', () => {
  it('is pinned under the bar: done items ticked, the current one marked', () => {
    const s = new LiveState(T0, 3, 3);
    s.task = 'Fix the login bug';
    s.progress(40, 'Reading files', T0, 120_000, { lowMs: 60_000, highMs: 300_000 });
    s.plan = items('completed', 'completed', 'in_progress', 'pending');
    expect(frame(s, T0)).toMatchInlineSnapshot(`
      "⠋ Fix the login bug
        █████████░░░░░░░░░░░░░░░  40% · 0s · ETA 1–5 min
        Plan 2/4 done
          ✓ Step 1
          ✓ Step 2
          ▸ Step 3
          ○ Step 4
        Reading files"
    `);
  });

  it('keeps a long plan to a bounded window around the current item', () => {
    const s = new LiveState(T0, 3, 3);
    s.plan = items(
      ...Array.from({ length: 40 }, (_, i): LivePlanItem['status'] => (i < 20 ? 'completed' : i === 20 ? 'in_progress' : 'pending')),
    );
    const lines = frame(s).split('\n');
    const planPart = lines.slice(lines.findIndex((l) => l.includes('Plan')));
    expect(planPart).toEqual([
      '  Plan 20/40 done',
      '    … 19 more above',
      '    ✓ Step 20',
      '    ▸ Step 21',
      '    ○ Step 22',
      '    ○ Step 23',
      '    ○ Step 24',
      '    ○ Step 25',
      '    … 15 more',
    ]);
    expect(planPart.length).toBeLessThanOrEqual(MAX_PLAN_LINES + 3);
  });
});

describe('the ETA range', () => {
  it('reads in the unit of its high end', () => {
    expect([
      formatEtaRange(20_000, 45_000),
      formatEtaRange(120_000, 300_000),
      formatEtaRange(10_000, 300_000),
      formatEtaRange(3_600_000, 9_000_000),
    ]).toEqual(['20–45s', '2–5 min', '<1–5 min', '1–3 h']);
  });

  it('is what the plain lines show when the event has one', () => {
    const base = { runId: 'r', seq: 2, ts: 0, type: 'progress' as const, percent: 40, message: 'Reading' };
    expect(plainEventText({ ...base, etaMs: 150_000, etaLowMs: 60_000, etaHighMs: 300_000 }, 80)).toMatch(/\(ETA 1–5 min\)$/);
    expect(plainEventText({ ...base, etaMs: 150_000 }, 80)).toMatch(/\(ETA 2m 30s\)$/);
  });
});

describe('CLIReporter with plan.updated', () => {
  it('pins the latest plan under the bar of the live block, and its terminal escapes are cleaned', async () => {
    const { createProgressHub } = await import('@headway/protocol');
    const { CLIReporter } = await import('./cli-reporter.js');
    const { ManualClock } = await import('@headway/protocol');
    const { RecordingStream, stripAnsi } = await import('./fake-terminal.test-util.js');
    const stream = new RecordingStream({ isTTY: true, columns: 100, rows: 30 });
    const clock = new ManualClock({ start: 1_000_000 });
    const reporter = new CLIReporter({ stream, env: {}, clock, color: false });
    const hub = createProgressHub({ runId: 'r' });
    hub.add(reporter);
    hub.emit({ type: 'run.started', agentName: 'demo', task: 'Fix login' });
    hub.emit({
      type: 'plan.updated',
      items: [
        { text: 'Read the code', status: 'in_progress' },
        { text: 'Fix it', status: 'pending' },
      ],
    });
    hub.emit({
      type: 'plan.updated',
      items: [
        { text: 'Read the code', status: 'completed' },
        { text: 'Fix \u001b[31mit', status: 'in_progress' },
      ],
    });
    hub.emit({ type: 'progress', percent: 69, etaMs: 90_000, etaLowMs: 20_000, etaHighMs: 600_000 });
    clock.advanceSync(80);
    const last = stripAnsi(stream.chunks.at(-1) ?? '');
    expect(last).toContain('69% · 0s · ETA <1–10 min');
    expect(last).toContain('Plan 1/2 done\n    ✓ Read the code\n    ▸ Fix ');
    // The escape in the plan text is shown, not obeyed.
    expect(stream.chunks.at(-1)).not.toContain('\u001b[31mit');
  });
});
