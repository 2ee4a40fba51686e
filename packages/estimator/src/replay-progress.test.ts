import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { replayProgress } from './replay-progress.js';

const fixture: unknown[] = readFileSync(new URL('../test/fixtures/plan-run.jsonl', import.meta.url), 'utf8')
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line) as unknown);

describe('replayProgress', () => {
  it('replays a recorded run with its plan: one point per event, never backwards, 100 at the end', () => {
    const points = replayProgress(fixture);
    expect(points).toHaveLength(fixture.length);
    const percents = points.map((p) => p.percent);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    expect(points.at(-1)).toEqual({ ts: 1_700_000_030_500, percent: 100 });
    // After the plan's fourth update (3 of 4 done, one in progress) the bar shows the plan.
    const fourth = fixture.findIndex((e, i) => i > 30 && (e as { type: string }).type === 'plan.updated');
    expect(points[fourth]?.percent).toBe(Math.round(92 * (3.5 / 4)));
  });

  it('without plans, replays the roundtrip estimate only', () => {
    const withPlan = replayProgress(fixture);
    const without = replayProgress(fixture, { plan: false });
    const at = fixture.length - 3;
    expect(withPlan[at]!.percent).toBeGreaterThan(without[at]!.percent);
  });

  it('reads the bar at extra times between events, and gives a range once there is evidence', () => {
    const at = [1_700_000_000_500, 1_700_000_019_500];
    const points = replayProgress(fixture, { at });
    const sampled = points.filter((p) => at.includes(p.ts));
    expect(sampled).toHaveLength(2);
    expect(sampled[0]!.etaMs).toBeUndefined();
    const later = sampled[1]!;
    expect(later.etaLowMs).toBeLessThanOrEqual(later.etaMs!);
    expect(later.etaHighMs).toBeGreaterThanOrEqual(later.etaMs!);
  });

  it("reads headway's own event log: envelopes, plan items, limits, unknown types skipped", () => {
    const envelope = (seq: number, ts: number): { runId: string; seq: number; ts: number } => ({ runId: 'r', seq, ts });
    const log = [
      { ...envelope(1, 0), type: 'run.started', agentName: 'a', limits: { iterations: 4 } },
      { ...envelope(2, 0), type: 'step.started', step: 'model' },
      { ...envelope(3, 10), type: 'text.delta', text: 'hi' },
      { ...envelope(4, 1000), type: 'tool.executing', toolName: 'update_plan' },
      {
        ...envelope(5, 1000),
        type: 'plan.updated',
        items: [
          { text: 'a', status: 'completed' },
          { text: 'b', status: 'in_progress' },
        ],
      },
      { ...envelope(6, 1100), type: 'tool.completed', toolName: 'update_plan', durationMs: 100, ok: true },
      { ...envelope(7, 1100), type: 'step.finished', step: 'model', durationMs: 1100 },
      { ...envelope(8, 1200), type: 'run.finished', durationMs: 1200, outcome: 'completed' },
      'not an event',
    ];
    const points = replayProgress(log);
    // 34: halfway through the first of at most 4 roundtrips; 69: the plan, 1.5 of 2 items over 92%.
    expect(points.map((p) => p.percent)).toEqual([0, 0, 34, 69, 69, 69, 100]);
  });

  it('refuses what is not a list of events', () => {
    expect(() => replayProgress('nope' as unknown as unknown[])).toThrow(/replayProgress: events must be an array/);
  });
});
