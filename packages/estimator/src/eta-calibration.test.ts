import { systemClock } from '@headway/protocol';
import { describe, expect, it } from 'vitest';
import { ETA_CALIBRATION, calibrateEta, etaCalibrationSchema } from './eta-calibration.js';
import { EstimatorError } from './estimator-error.js';
import { ProgressTracker } from './progress-tracker.js';

describe('calibrateEta', () => {
  it('picks the bin by the share of the run behind and scales the raw ETA by its fitted factors', () => {
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
    // With history the median stays; the spread moves with it.
    expect(calibrateEta(calibration, 'iterations', 50, 1000, true)).toEqual({
      point: 1000,
      low: 1000 * Math.exp(-1),
      high: 1000 * Math.exp(1),
    });
  });

  it('ships a table whose bins ascend to 101 and hold low <= mid <= high', () => {
    expect(etaCalibrationSchema.safeParse(ETA_CALIBRATION).success).toBe(true);
    expect(ETA_CALIBRATION.plan.at(-1)?.belowPercent).toBe(101);
    expect(ETA_CALIBRATION.iterations.at(-1)?.belowPercent).toBe(101);
  });
});

describe('ProgressTracker etaCalibration', () => {
  const run = (etaCalibration?: unknown): ProgressTracker => {
    let t = 0;
    const tracker = new ProgressTracker({
      maxRoundtrips: 10,
      clock: { ...systemClock, now: () => t },
      ...(etaCalibration === undefined ? {} : { etaCalibration: etaCalibration as never }),
    });
    for (let i = 0; i < 3; i++) {
      tracker.roundtripStarted();
      t += 1000;
      tracker.roundtripFinished();
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

  it('refuses a table that does not validate, naming where', () => {
    const bad = { plan: [{ belowPercent: 101, low: 1, mid: 0, high: 2 }], iterations: [] };
    expect(() => run(bad)).toThrow(EstimatorError);
    expect(() => run(bad)).toThrow(/etaCalibration/);
  });
});
