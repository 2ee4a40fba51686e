import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HeadwayError, ManualClock, type PlanItem } from '@headway/protocol';
import { COLD_START_TUNING, coldStartPercent, coldStartTuningSchema, type ColdStartTuning } from './cold-start.js';
import type { EstimatorError } from './estimator-error.js';
import { ProgressTracker, type ProgressTrackerOptions } from './progress-tracker.js';
import { replayProgress } from './replay-progress.js';

// A recorded Claude Code session of 93 iterations (several issues, one todo list each; the
// first plan comes at iteration 20), reduced to structure and timing: OpenAgentsInc/openagents
// (Apache-2.0), docs/logs/20251222/170100-call-issue-ready-now-to.jsonl, session 0.
const session = readFileSync(join(import.meta.dirname, '..', 'test', 'fixtures', 'claude-code-session-93.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line) as { type: string; ts: number });

/** What the bar showed right after the n-th model call began. */
function atIteration(points: ReturnType<typeof replayProgress>, n: number): ReturnType<typeof replayProgress>[number] {
  const started = session.filter((e) => e.type === 'step.started')[n - 1];
  if (started === undefined) throw new Error(`no iteration ${n}`);
  const point = points.findLast((p) => p.ts <= started.ts);
  if (point === undefined) throw new Error(`nothing shown by iteration ${n}`);
  return point;
}

describe('cold start: no cap, no plan, no history', () => {
  it('rises over the first iterations, flattens, and never claims the end is near', () => {
    expect(coldStartPercent(0)).toBe(0);
    expect(coldStartPercent(Number.NaN)).toBe(0);
    // 75 · √p / (√p + 2): the shipped ceiling 75, half at 4 iterations, shape 0.5.
    expect(coldStartPercent(1)).toBe(25);
    expect(coldStartPercent(3)).toBeCloseTo(34.81, 2);
    expect(coldStartPercent(4)).toBe(37.5);
    expect(coldStartPercent(15)).toBeCloseTo(49.46, 2);
    expect(coldStartPercent(1e9)).toBeLessThan(75);
  });

  it('follows the tuning it is given', () => {
    const hyperbola = { ceiling: 90, half: 30, shape: 1, historyWeight: 1 };
    expect(coldStartPercent(15, hyperbola)).toBe(30);
    expect(coldStartPercent(30, hyperbola)).toBe(45);
  });

  it('shows at most 50% at iteration 15 of the recorded 93-iteration session, marked as a guess without an ETA', () => {
    const points = replayProgress(session, { maxIterations: Number.POSITIVE_INFINITY });
    const p15 = atIteration(points, 15);
    expect(p15.percent).toBeLessThanOrEqual(50);
    expect(p15.guess).toBe(true);
    expect(p15.etaMs).toBeUndefined();
    expect(points.at(-1)).toMatchObject({ percent: 100 });
    expect(points.at(-1)?.guess).toBeUndefined();
    // Once the agent keeps a plan current, the percent is not a guess any more.
    expect(points.some((p) => p.guess === undefined && p.percent < 100)).toBe(true);
  });

  it('uses a cap when there is one: not a guess', () => {
    const points = replayProgress(session, { maxIterations: 100 });
    expect(points.every((p) => p.guess === undefined)).toBe(true);
  });

  it('counts a new list after a finished one as the next plan', () => {
    const points = replayProgress(session, { maxIterations: Number.POSITIVE_INFINITY });
    const plans = [...new Set(points.map((p) => p.plan))];
    expect(plans[0]).toBeUndefined();
    expect(plans.slice(1)).toEqual(plans.slice(1).map((_, i) => i + 2));
    expect(plans.length).toBeGreaterThan(1);
  });
});

/** An uncapped tracker on a manual clock, and a roundtrip of 1.5 s that may run a named tool. */
function uncapped(options: Partial<ProgressTrackerOptions> = {}): { tracker: ProgressTracker; round: (tool?: string) => void } {
  const clock = new ManualClock({ start: 1_000_000 });
  const tracker = new ProgressTracker({ maxIterations: Number.POSITIVE_INFINITY, clock, ...options });
  const round = (tool = 'Bash'): void => {
    tracker.iterationStarted();
    clock.advanceSync(1000);
    tracker.toolsStarted();
    clock.advanceSync(500);
    tracker.toolCallFinished(tool, true);
    tracker.iterationFinished();
  };
  return { tracker, round };
}

const items = (...statuses: PlanItem['status'][]): { items: PlanItem[] } => ({
  items: statuses.map((status, i) => ({ text: `item ${i}`, status })),
});

describe('cold start in the tracker', () => {
  it('replays a log that records no cap as a run without one', () => {
    expect(replayProgress(session)).toEqual(replayProgress(session, { maxIterations: Number.POSITIVE_INFINITY }));
  });

  it('shows the curve of the coldStart it is given, between iterations', () => {
    const { tracker, round } = uncapped({ coldStart: { ceiling: 90, half: 30, shape: 1, historyWeight: 1 } });
    for (let i = 0; i < 15; i++) round();
    expect(tracker.percent).toBe(30);
    expect(tracker.guess).toBe(true);
    const shipped = uncapped();
    for (let i = 0; i < 15; i++) shipped.round();
    expect(shipped.tracker.percent).toBe(Math.round(coldStartPercent(15)));
  });

  it('walks the guess through the current plan’s slice in a run of several plans', () => {
    const { tracker, round } = uncapped();
    // An issue list: the run holds several plans, the first spans 1 / (1 + 0.5) of the bar.
    round('mcp__issues__issue_ready');
    for (let i = 0; i < 3; i++) round();
    expect(tracker.percent).toBe(Math.round((100 / 1.5) * (coldStartPercent(4) / 100)));
    expect(tracker.planUpdated(items('completed', 'in_progress'))).toBe(true);
    expect(tracker.planUpdated(items('completed', 'completed'))).toBe(true);
    // All done: 92% of the first slice.
    const first = tracker.percent;
    expect(first).toBe(Math.round(0.92 * (100 / 1.5)));
    // Plan 2 is declared after 4 iterations; its own iterations move the guess through its slice,
    // 1 / (2 + 0.5) of the 39 points left.
    expect(tracker.planUpdated(items('in_progress', 'pending', 'pending'))).toBe(true);
    expect(tracker.planNumber).toBe(2);
    for (let i = 0; i < 4; i++) round();
    expect(tracker.percent).toBe(Math.round(first + ((100 - first) / 2.5) * (coldStartPercent(4) / 100)));
    expect(tracker.toJSON().plan).toMatchObject({ phase: 2, phaseStart: first, phaseRoundtrip: 4 });
    // A tracker restored from the saved state goes on from the same plan and the same iteration.
    const restored = new ProgressTracker({
      maxIterations: Number.POSITIVE_INFINITY,
      clock: new ManualClock({ start: 5_000_000 }),
      state: tracker.toJSON(),
    });
    expect(restored.percent).toBe(tracker.percent);
    expect(restored.toJSON().plan).toEqual(tracker.toJSON().plan);
  });

  it('weighs history against the guess without a cap by historyWeight', () => {
    const history = { runs: [{ roundtrips: 4, durationMs: 6000 }] };
    const percentAfter = (historyWeight: number): number => {
      const { tracker, round } = uncapped({ history, coldStart: { ...COLD_START_TUNING, historyWeight } });
      for (let i = 0; i < 3; i++) round();
      expect(tracker.guess).toBe(false);
      return tracker.percent;
    };
    // Weight 0: the guess alone; weight 1: history's short runs say the run is nearly done.
    expect(percentAfter(0)).toBe(Math.round(coldStartPercent(3)));
    expect(percentAfter(1)).toBeGreaterThan(percentAfter(0.25));
    expect(percentAfter(0.25)).toBeGreaterThan(percentAfter(0));
  });

  it('rejects a coldStart that does not validate, naming the field', () => {
    const bad: [unknown, string][] = [
      [{ ...COLD_START_TUNING, shape: 0 }, 'coldStart.shape'],
      [{ ...COLD_START_TUNING, ceiling: 100 }, 'coldStart.ceiling'],
      [{ ...COLD_START_TUNING, historyWeight: Number.NaN }, 'coldStart.historyWeight'],
      [{ ...COLD_START_TUNING, extra: 1 }, 'coldStart'],
      ['slow', 'coldStart'],
    ];
    for (const [coldStart, path] of bad) {
      let caught: unknown;
      try {
        new ProgressTracker({ maxIterations: 10, coldStart: coldStart as ColdStartTuning });
      } catch (error) {
        caught = error;
      }
      expect(HeadwayError.isInstance(caught, 'ESTIMATOR_INVALID_ARGUMENT')).toBe(true);
      expect((caught as EstimatorError).issues[0]?.path).toBe(path);
    }
    expect(coldStartTuningSchema.safeParse(COLD_START_TUNING).success).toBe(true);
  });
});
