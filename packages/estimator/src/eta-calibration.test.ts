import { systemClock } from '@headway/protocol';
import { describe, expect, it } from 'vitest';
import { ETA_CALIBRATION, calibrateEta, etaCalibrationSchema } from './eta-calibration.js';
import { EstimatorError } from './estimator-error.js';
import { ProgressTracker } from './progress-tracker.js';

describe('calibrateEta', () => {
  it('picks the bin by the percent shown and scales the raw ETA by its fitted factors', () => {
    const calibration = {
      plan: [{ belowPercent: 101, low: 0, mid: 0, high: 0 }],
      iterations: [
        { belowPercent: 50, low: -1, mid: 0, high: 1 },
        { belowPercent: 101, low: -2, mid: -1, high: 0 },
      ],
    };
    expect(calibrateEta(calibration, 'iterations', 49, 1000)).toEqual({ point: 1000, low: 1000 * Math.exp(-1), high: 1000 * Math.exp(1) });
    expect(calibrateEta(calibration, 'iterations', 50, 1000)).toEqual({ point: 1000 * Math.exp(-1), low: 1000 * Math.exp(-2), high: 1000 });
    expect(calibrateEta(calibration, 'plan', 99, 1000)).toEqual({ point: 1000, low: 1000, high: 1000 });
    // A table without history bins calibrates history evidence with its iterations bins.
    expect(calibrateEta(calibration, 'history', 49, 1000)).toEqual(calibrateEta(calibration, 'iterations', 49, 1000));
    const withHistory = { ...calibration, history: [{ belowPercent: 101, low: -3, mid: -0.5, high: 2 }] };
    // The median stays the history's own; the range is the fitted one.
    expect(calibrateEta(withHistory, 'history', 10, 1000)).toEqual({
      point: 1000,
      low: 1000 * Math.exp(-3),
      high: 1000 * Math.exp(2),
    });
  });

  it('ships a table whose bins ascend to 101 and hold low <= mid <= high', () => {
    expect(etaCalibrationSchema.safeParse(ETA_CALIBRATION).success).toBe(true);
    expect(ETA_CALIBRATION.plan.at(-1)?.belowPercent).toBe(101);
    expect(ETA_CALIBRATION.iterations.at(-1)?.belowPercent).toBe(101);
    expect(ETA_CALIBRATION.history?.at(-1)?.belowPercent).toBe(101);
    expect(ETA_CALIBRATION.finishing?.at(-1)?.belowPercent).toBe(101);
  });

  it('calibrates finishing evidence with its own bins, or the shipped ones when a table has none', () => {
    const identity = { belowPercent: 101, low: 0, mid: 0, high: 0 };
    const own = { plan: [identity], iterations: [identity], finishing: [{ belowPercent: 101, low: -1, mid: 0, high: 1 }] };
    expect(calibrateEta(own, 'finishing', 90, 1000)).toEqual({ point: 1000, low: 1000 * Math.exp(-1), high: 1000 * Math.exp(1) });
    expect(calibrateEta({ plan: [identity], iterations: [identity] }, 'finishing', 95, 1000)).toEqual(
      calibrateEta(ETA_CALIBRATION, 'finishing', 95, 1000),
    );
  });
});

describe('ProgressTracker etaCalibration', () => {
  const run = (etaCalibration?: unknown): ProgressTracker => {
    let t = 0;
    const tracker = new ProgressTracker({
      maxIterations: 10,
      clock: { ...systemClock, now: () => t },
      ...(etaCalibration === undefined ? {} : { etaCalibration: etaCalibration as never }),
    });
    for (let i = 0; i < 3; i++) {
      tracker.iterationStarted();
      t += 1000;
      tracker.iterationFinished();
    }
    return tracker;
  };

  it('applies the given table to the raw ETA and says what the ETA rests on', () => {
    const identity = { belowPercent: 101, low: 0, mid: 0, high: 0 };
    const raw = run({ plan: [identity], iterations: [identity] });
    const wide = run({ plan: [identity], iterations: [{ belowPercent: 101, low: -1, mid: 0.5, high: 1 }] });
    expect(raw.etaEvidence).toBe('iterations');
    expect(raw.etaLowMs).toBe(raw.etaMs);
    expect(wide.etaMs).toBe(Math.round((raw.etaMs ?? 0) * Math.exp(0.5)));
    expect(wide.etaHighMs).toBe(Math.round((raw.etaMs ?? 0) * Math.exp(1)));
  });

  it('reads the bin of the percent the bar shows', () => {
    const identity = { belowPercent: 101, low: 0, mid: 0, high: 0 };
    const raw = run({ plan: [identity], iterations: [identity] });
    const shown = raw.percent;
    // Only the bin holding the percent shown applies: one bin below it and one above it are left alone.
    const split = run({
      plan: [identity],
      iterations: [
        { belowPercent: shown, low: -5, mid: -5, high: -5 },
        { belowPercent: shown + 1, low: -1, mid: 1, high: 2 },
        { belowPercent: 101, low: 5, mid: 5, high: 5 },
      ],
    });
    expect(split.etaMs).toBe(Math.round((raw.etaMs ?? 0) * Math.exp(1)));
    expect(split.etaLowMs).toBe(Math.round((raw.etaMs ?? 0) * Math.exp(-1)));
  });

  it('uses the history bins when the tracker has history', () => {
    let t = 0;
    const identity = { belowPercent: 101, low: 0, mid: 0, high: 0 };
    const make = (history?: boolean): ProgressTracker =>
      new ProgressTracker({
        maxIterations: 10,
        clock: { ...systemClock, now: () => t },
        ...(history === true ? { history: { runs: [{ roundtrips: 6, durationMs: 6000 }] } } : {}),
        etaCalibration: { plan: [identity], iterations: [identity], history: [{ belowPercent: 101, low: -1, mid: 0, high: 1 }] },
      });
    const withHistory = make(true);
    const without = make();
    for (let i = 0; i < 3; i++) {
      for (const tracker of [withHistory, without]) tracker.iterationStarted();
      t += 1000;
      for (const tracker of [withHistory, without]) tracker.iterationFinished();
    }
    expect(withHistory.etaEvidence).toBe('history');
    // Both ends are rounded to whole milliseconds.
    expect((withHistory.etaHighMs ?? 0) / (withHistory.etaMs ?? 1)).toBeCloseTo(Math.E, 3);
    expect((withHistory.etaLowMs ?? 0) / (withHistory.etaMs ?? 1)).toBeCloseTo(Math.exp(-1), 3);
    expect(without.etaEvidence).toBe('iterations');
    expect(without.etaHighMs).toBe(without.etaMs);
  });

  describe('a plan on its last item', () => {
    const identity = { belowPercent: 101, low: 0, mid: 0, high: 0 };
    const calibration = { plan: [identity], iterations: [identity], finishing: [{ belowPercent: 101, low: -1, mid: 0, high: 1 }] };
    const items = (done: number, inProgress: number, total = 4) =>
      Array.from({ length: total }, (_, i) => ({
        text: `item ${i + 1}`,
        status: i < done ? ('completed' as const) : i < done + inProgress ? ('in_progress' as const) : ('pending' as const),
      }));
    /** Four iterations of 1 s, the plan of four items kept current; the last update leaves `done` completed and `inProgress` in progress. */
    const planRun = (done: number, inProgress: number, extra: { queue?: boolean } = {}): { tracker: ProgressTracker; elapsed: number } => {
      let t = 0;
      const tracker = new ProgressTracker({ maxIterations: 30, clock: { ...systemClock, now: () => t }, etaCalibration: calibration });
      tracker.iterationStarted();
      if (extra.queue === true) tracker.toolCallFinished('issues_list', true);
      tracker.planUpdated({ items: items(0, 1) });
      t += 1000;
      tracker.iterationFinished();
      for (let i = 1; i < 4; i++) {
        tracker.iterationStarted();
        tracker.planUpdated({ items: items(Math.min(i, done), i < done ? 1 : inProgress) });
        t += 1000;
        tracker.iterationFinished();
      }
      tracker.iterationStarted();
      tracker.planUpdated({ items: items(done, inProgress) });
      return { tracker, elapsed: t };
    };

    it('says the run is finishing and puts half an item at the run pace left, spread by the finishing bins', () => {
      const { tracker, elapsed } = planRun(3, 1);
      expect(tracker.etaEvidence).toBe('finishing');
      // 4 s for four items: half an item is 500 ms.
      expect(elapsed / (2 * 4)).toBe(500);
      expect(tracker.etaMs).toBe(500);
      expect(tracker.etaLowMs).toBe(Math.round(500 * Math.exp(-1)));
      expect(tracker.etaHighMs).toBe(Math.round(500 * Math.exp(1)));
    });

    it('also once every item is done, but not while items are pending', () => {
      expect(planRun(4, 0).tracker.etaEvidence).toBe('finishing');
      expect(planRun(2, 1).tracker.etaEvidence).toBe('plan');
    });

    it('not when the run showed a queue of tasks: the last item of one plan is not the end', () => {
      expect(planRun(3, 1, { queue: true }).tracker.etaEvidence).toBe('plan');
    });

    it('keeps finishing after a checkpoint round trip', () => {
      const { tracker } = planRun(3, 1);
      const resumed = new ProgressTracker({
        maxIterations: 30,
        clock: { ...systemClock, now: () => 4000 },
        etaCalibration: calibration,
        state: tracker.toJSON(),
      });
      resumed.tick();
      expect(resumed.etaEvidence).toBe('finishing');
      expect(resumed.etaMs).toBe(500);
    });
  });

  it('refuses a table that does not validate, naming where', () => {
    const bad = { plan: [{ belowPercent: 101, low: 1, mid: 0, high: 2 }], iterations: [] };
    expect(() => run(bad)).toThrow(EstimatorError);
    expect(() => run(bad)).toThrow(/etaCalibration/);
  });
});
