import { ManualClock } from '@headway/protocol';
import { describe, expect, it } from 'vitest';
import type { PlanItem } from '@headway/protocol';
import { EstimatorError } from './estimator-error.js';
import { PLAN_TUNING, type PlanTuning } from './plan-progress.js';
import { ProgressTracker, type ProgressEmission } from './progress-tracker.js';
import { replayProgress } from './replay-progress.js';

function plan(...statuses: PlanItem['status'][]): { type: 'plan.updated'; items: PlanItem[] } {
  return { type: 'plan.updated', items: statuses.map((status, i) => ({ id: `t${i}`, text: `item ${i}`, status })) };
}

/** Two trackers on one clock: one told the plan, one not, driven through the same roundtrips. */
function twins(
  maxIterations = 30,
  planTuning?: PlanTuning,
): {
  withPlan: ProgressTracker;
  without: ProgressTracker;
  emitted: ProgressEmission[];
  /** One roundtrip of 1.5 s; returns the percent right after the plan update it carries. */
  round: (update?: ReturnType<typeof plan>) => number;
} {
  const clock = new ManualClock({ start: 1_000_000 });
  const emitted: ProgressEmission[] = [];
  const withPlan = new ProgressTracker({
    maxIterations,
    clock,
    emit: (b) => emitted.push(b),
    ...(planTuning === undefined ? {} : { planTuning }),
  });
  const without = new ProgressTracker({ maxIterations, clock });
  const round = (update?: ReturnType<typeof plan>): number => {
    for (const t of [withPlan, without]) t.iterationStarted();
    clock.advanceSync(1000);
    for (const t of [withPlan, without]) t.toolsStarted();
    if (update !== undefined) expect(withPlan.planUpdated(update)).toBe(true);
    const atUpdate = withPlan.percent;
    clock.advanceSync(500);
    for (const t of [withPlan, without]) t.iterationFinished();
    return atUpdate;
  };
  return { withPlan, without, emitted, round };
}

describe('ProgressTracker with the agent plan', () => {
  it('moves the bar by the items the agent completes while it keeps the plan current', () => {
    const { withPlan, without, round } = twins(100);
    round(plan('in_progress', 'pending', 'pending', 'pending'));
    const declared = withPlan.percent;
    // Declared only: the plan is not trusted yet, the roundtrip estimate stands.
    expect(declared).toBe(without.percent);
    // 2.5 of 4 items done, over the 92% the plan spans.
    expect(round(plan('completed', 'completed', 'in_progress', 'pending'))).toBe(Math.max(declared, Math.round(92 * (2.5 / 4))));
    // Between updates the clock moves the bar into the next item, at the pace kept so far.
    expect(withPlan.percent).toBe(Math.round((92 * (2 + 500 / 750)) / 4));
    expect(round(plan('completed', 'completed', 'completed', 'in_progress'))).toBe(Math.round(92 * (3.5 / 4)));
    expect(withPlan.percent).toBeGreaterThan(without.percent);
  });

  it('falls back to the roundtrip estimate when a declared plan is never updated (the stale case)', () => {
    const { withPlan, without, round } = twins(100);
    round();
    round(plan('in_progress', 'pending', 'pending', 'pending'));
    // The bound holds for PLAN_TUNING.staleAfter (30) iterations, then halves every 6.
    for (let i = 0; i < 70; i++) {
      round();
      // The plan only bounds the estimate (at most 3 of its 4 items ahead) while it is fresh.
      if (without.percent <= Math.round(92 * (3 / 4))) expect(withPlan.percent).toBe(without.percent);
      else expect(withPlan.percent).toBeLessThanOrEqual(without.percent);
    }
    // Once the plan has gone stale, its bound lets go and the bar moves on past it.
    expect(withPlan.percent).toBeGreaterThan(Math.round(92 * (3 / 4)) + 10);
  });

  it('keeps the roundtrip estimate from running more than 3 items ahead of a fresh plan', () => {
    const { withPlan, without, round } = twins(30);
    const ten: PlanItem['status'][] = ['in_progress', ...Array.from({ length: 9 }, (): PlanItem['status'] => 'pending')];
    round(plan(...ten));
    const bound = Math.round(92 * (3 / 10));
    for (let i = 0; i < 11; i++) {
      round();
      expect(withPlan.percent).toBe(Math.min(without.percent, bound));
    }
    expect(without.percent).toBeGreaterThan(bound + 10);
    // Completing an item moves the bound one item on; the trusted plan then leads the bar.
    round(plan('completed', 'in_progress', ...ten.slice(2)));
    expect(withPlan.percent).toBe(bound);
    expect(withPlan.percent).toBeLessThan(without.percent);
  });

  it('lets a maintained plan that stops changing lose its hold on the bar', () => {
    const { withPlan, without, round } = twins(200);
    round(plan('in_progress', 'pending', 'pending', 'pending', 'pending', 'pending', 'pending', 'pending', 'pending', 'pending'));
    round(plan('completed', 'in_progress', 'pending', 'pending', 'pending', 'pending', 'pending', 'pending', 'pending', 'pending'));
    // The plan holds the bar for a while although the roundtrip estimate moves on: at most two
    // items (the shipped leadItems) past the completed one, 92% of 3 / 10 ...
    for (let i = 0; i < 8; i++) round();
    const held = withPlan.percent;
    expect(held).toBe(Math.round(92 * (3 / 10)));
    round();
    expect(withPlan.percent).toBe(held);
    expect(without.percent).toBeGreaterThan(held);
    // ... and sixty roundtrips later the roundtrip estimate leads again.
    for (let i = 0; i < 60; i++) round();
    expect(withPlan.percent).toBeGreaterThan(held);
    expect(withPlan.percent).toBeGreaterThanOrEqual(without.percent - 2);
  });

  it('reads a new list after a finished one as plan 2, spanning a third of the bar left, and never goes backwards', () => {
    const { withPlan, emitted, round } = twins(100);
    round(plan('in_progress', 'pending'));
    round(plan('completed', 'in_progress'));
    round(plan('completed', 'completed'));
    const finished = withPlan.percent;
    expect(finished).toBe(92);
    expect(withPlan.planNumber).toBeUndefined();
    round(plan('in_progress', 'pending', 'pending'));
    round(plan('completed', 'in_progress', 'pending'));
    // Plan 2 takes 1 / (2 + 1) of the 8 points left: 1.5 of 3 items over 92% of the slice 92–94.67: 93.23.
    expect(withPlan.percent).toBe(93);
    expect(withPlan.planNumber).toBe(2);
    expect(emitted.at(-1)?.plan).toBe(2);
    const percents = emitted.map((e) => e.percent);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
  });

  it('gives the first plan half of the bar once the agent showed a queue of tasks (an issue list)', () => {
    const { withPlan, round } = twins(100);
    withPlan.iterationStarted();
    withPlan.toolsStarted();
    withPlan.toolCallFinished('mcp__issues__issue_ready', true);
    withPlan.iterationFinished();
    round(plan('in_progress', 'pending'));
    round(plan('completed', 'in_progress'));
    round(plan('completed', 'completed'));
    // All items done: 92% of the first plan's slice 0–66.7 (1 / (1 + 0.5) of the bar, the shipped phasePrior).
    expect(withPlan.percent).toBe(61);
  });

  it('stays at most 99 with every item completed until the run completes', () => {
    const { withPlan, round } = twins(3);
    round(plan('in_progress', 'pending'));
    round(plan('completed', 'completed'));
    expect(withPlan.percent).toBe(92);
    for (let i = 0; i < 40; i++) {
      round();
      expect(withPlan.percent).toBeGreaterThanOrEqual(92);
      expect(withPlan.percent).toBeLessThanOrEqual(99);
    }
    withPlan.complete();
    expect(withPlan.percent).toBe(100);
    expect(withPlan.planUpdated(plan('completed'))).toBe(false);
  });

  it('ignores a plan that does not validate: the bar does not move', () => {
    const { withPlan, emitted, round } = twins();
    round();
    const before = { percent: withPlan.percent, emitted: emitted.length };
    const tooMany = { items: Array.from({ length: 10_000 }, (_, i) => ({ text: `t${i}`, status: 'completed' as const })) };
    const bad: unknown[] = [
      { items: [] },
      {
        items: [
          { id: 'a', text: 'x', status: 'completed' },
          { id: 'a', text: 'y', status: 'completed' },
        ],
      },
      { items: [{ text: 'x', status: 'done' }] },
      tooMany,
      { items: 'not a list' },
      null,
    ];
    for (const update of bad) expect(withPlan.planUpdated(update as { items: PlanItem[] })).toBe(false);
    expect({ percent: withPlan.percent, emitted: emitted.length }).toEqual(before);
  });
});

describe('ProgressTracker ETA range', () => {
  it('is absent without evidence, then brackets the point ETA', () => {
    const { withPlan, emitted, round } = twins();
    expect(withPlan.etaMs).toBeUndefined();
    round();
    expect([withPlan.etaMs, withPlan.etaLowMs, withPlan.etaHighMs]).toEqual([undefined, undefined, undefined]);
    round();
    round();
    const { etaMs, etaLowMs, etaHighMs } = withPlan;
    expect(etaMs).toBeGreaterThan(0);
    expect(etaLowMs).toBeLessThan(etaMs!);
    expect(etaHighMs).toBeGreaterThan(etaMs!);
    const last = emitted.at(-1)!;
    expect(last.etaLowMs).toBeLessThanOrEqual(last.etaMs!);
    expect(last.etaHighMs).toBeGreaterThanOrEqual(last.etaMs!);
  });

  it('shrinks in time as the plan gets done', () => {
    const { withPlan, round } = twins(100);
    round(plan('in_progress', 'pending', 'pending', 'pending'));
    round(plan('completed', 'in_progress', 'pending', 'pending'));
    const early = withPlan.etaHighMs! - withPlan.etaLowMs!;
    round(plan('completed', 'completed', 'completed', 'in_progress'));
    const late = withPlan.etaHighMs! - withPlan.etaLowMs!;
    expect(late).toBeLessThan(early);
  });
});

describe('ProgressTracker saved state with the agent plan', () => {
  it('a run resumed from a checkpoint keeps following the plan, as if it had never stopped', () => {
    const clock = new ManualClock({ start: 1_000_000 });
    const through = new ProgressTracker({ maxIterations: 100, clock });
    const steps: (ReturnType<typeof plan> | undefined)[] = [
      plan('in_progress', 'pending', 'pending', 'pending'),
      plan('completed', 'in_progress', 'pending', 'pending'),
    ];
    const round = (trackers: ProgressTracker[], update?: ReturnType<typeof plan>): void => {
      for (const t of trackers) t.iterationStarted();
      clock.advanceSync(1000);
      for (const t of trackers) t.toolsStarted();
      if (update !== undefined) for (const t of trackers) t.planUpdated(update);
      clock.advanceSync(500);
      for (const t of trackers) t.iterationFinished();
    };
    for (const update of steps) round([through], update);
    const saved = JSON.parse(JSON.stringify(through)) as Record<string, unknown>;
    expect(saved.plan).toEqual({
      total: 4,
      completed: 1,
      inProgress: 1,
      maintained: true,
      restarted: false,
      changedAtRoundtrip: 2,
      declaredAtMs: 1000,
      completedAtMs: 2500,
    });
    const resumed = new ProgressTracker({ maxIterations: 100, clock, state: saved });
    const { plan: _dropped, ...withoutPlan } = saved;
    const forgetful = new ProgressTracker({ maxIterations: 100, clock, state: withoutPlan });
    expect(resumed.toJSON()).toEqual(through.toJSON());
    const later: (ReturnType<typeof plan> | undefined)[] = [undefined, plan('completed', 'completed', 'in_progress', 'pending'), undefined];
    for (const update of later) {
      round([through, resumed, forgetful], update);
      expect(resumed.percent).toBe(through.percent);
    }
    expect(resumed.toJSON()).toEqual(through.toJSON());
    // The plan's pace (2.25 s an item) carried over: 2 s past the last completed item, held at 0.8 of an item.
    expect(resumed.percent).toBe(Math.round((92 * 2.8) / 4));
    // Without the plan in the checkpoint, the resumed bar falls back to the roundtrip estimate.
    expect(forgetful.percent).toBeLessThan(through.percent);
  });

  it('rejects a saved plan that counts more items than it has, naming the path', () => {
    const state = { ...new ProgressTracker({ maxIterations: 5 }).toJSON() };
    const plan = {
      total: 2,
      completed: 2,
      inProgress: 1,
      maintained: true,
      restarted: false,
      changedAtRoundtrip: 0,
      declaredAtMs: 0,
      completedAtMs: 0,
    };
    expect(() => new ProgressTracker({ maxIterations: 5, state: { ...state, plan } })).toThrow(
      /^Invalid progress tracker state: plan: completed and in-progress items exceed the total$/,
    );
    expect(() => new ProgressTracker({ maxIterations: 5, state: { ...state, plan: { ...plan, total: 201, extra: 1 } } })).toThrow(
      /plan\.total/,
    );
  });

  it('lets the roundtrip estimate lead a trusted plan between its updates, by at most two items', () => {
    const ten: PlanItem['status'][] = ['completed', 'in_progress', ...Array.from({ length: 8 }, (): PlanItem['status'] => 'pending')];
    const led = twins(100);
    const alone = twins(100, { ...PLAN_TUNING, leadItems: 0 });
    // Written with its first item done: a plan the agent keeps, trusted from the start.
    for (const { round } of [led, alone]) round(plan(...ten));
    // Half the item in progress, or the roundtrip estimate before the plan came, if higher.
    const start = Math.max(led.without.percent, Math.round(92 * (1.5 / 10)));
    expect(led.withPlan.percent).toBe(start);
    expect(start).toBeLessThan(Math.round(92 * (2 / 10)));
    for (let i = 0; i < 12; i++) for (const { round } of [led, alone]) round();
    // The iterations say the run moved on: the bar follows them up to the mark two items past the completed one ...
    expect(led.without.percent).toBeGreaterThan(Math.round(92 * (3 / 10)));
    expect(led.withPlan.percent).toBe(Math.round(92 * (3 / 10)));
    // ... where the plan alone stays at half the item in progress (no pace is known before a second item is done).
    expect(alone.withPlan.percent).toBe(start);
    const percents = led.emitted.map((e) => e.percent);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
  });

  it('takes its constants from planTuning: a larger phasePrior gives the first of several plans less of the bar', () => {
    const { withPlan, round } = twins(100, { ...PLAN_TUNING, phasePrior: 2 });
    withPlan.iterationStarted();
    withPlan.toolsStarted();
    withPlan.toolCallFinished('mcp__issues__issue_ready', true);
    withPlan.iterationFinished();
    round(plan('in_progress', 'pending'));
    round(plan('completed', 'in_progress'));
    round(plan('completed', 'completed'));
    // All items done: 92% of the first plan's slice 0–33.3 (1 / (1 + 2) of the bar).
    expect(withPlan.percent).toBe(31);
  });

  it('rejects a planTuning that does not validate, naming the field', () => {
    const bad: unknown[] = [
      { ...PLAN_TUNING, staleAfter: -1 },
      { ...PLAN_TUNING, phasePrior: 0 },
      { ...PLAN_TUNING, leadItems: Number.NaN },
      { staleAfter: 30, phasePrior: 1 },
      { ...PLAN_TUNING, extra: 1 },
      'fast',
    ];
    const paths = [
      'planTuning.staleAfter',
      'planTuning.phasePrior',
      'planTuning.leadItems',
      'planTuning.leadItems',
      'planTuning',
      'planTuning',
    ];
    bad.forEach((planTuning, i) => {
      let caught: unknown;
      try {
        new ProgressTracker({ maxIterations: 10, planTuning: planTuning as PlanTuning });
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(EstimatorError);
      const error = caught as EstimatorError;
      expect(error.code).toBe('ESTIMATOR_INVALID_ARGUMENT');
      expect(error.issues[0]?.path).toBe(paths[i]);
    });
  });

  it('replays a recorded run with the planTuning given', () => {
    const events: unknown[] = [{ type: 'run.started', ts: 0, maxIterations: 100 }];
    let ts = 0;
    const plans = [
      { total: 2, completed: 0, inProgress: 1 },
      { total: 2, completed: 1, inProgress: 1 },
      { total: 2, completed: 2, inProgress: 0 },
    ];
    events.push(
      { type: 'tool.executing', ts: (ts += 100), toolName: 'issue_list' },
      { type: 'tool.completed', ts: (ts += 100), toolName: 'issue_list', ok: true },
    );
    for (const counts of plans) {
      events.push(
        { type: 'step.started', ts: (ts += 1000) },
        { type: 'plan.updated', ts: (ts += 500), ...counts },
        { type: 'step.finished', ts: (ts += 500) },
      );
    }
    const last = (tuning?: PlanTuning): number | undefined =>
      replayProgress(events, tuning === undefined ? {} : { planTuning: tuning }).at(-1)?.percent;
    expect(last()).toBe(61);
    expect(last({ ...PLAN_TUNING, phasePrior: 4 })).toBe(18);
  });
});
