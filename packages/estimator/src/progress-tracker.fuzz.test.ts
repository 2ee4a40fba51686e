import { systemClock } from '@headway/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HOSTILE_RUN, HOSTILE_TEST_TIMEOUT, hostileString, withHostileHoles } from './hostile.test-util.js';
import { EstimatorError } from './estimator-error.js';
import { ProgressTracker } from './progress-tracker.js';
import { replayProgress } from './replay-progress.js';

const status = fc.constantFrom('pending', 'in_progress', 'completed', 'done', '');
const item = fc.record({ id: fc.option(fc.string({ maxLength: 3 }), { nil: undefined }), text: hostileString, status });
const planUpdate = fc.record({ type: fc.constant('plan.updated'), items: fc.array(item, { maxLength: 8 }) });

// Each property runs under HOSTILE_RUN (fast-check stops it at 60 s times the machine's load); vitest's
// timeout lies above that (HOSTILE_TEST_TIMEOUT), not at the package's 30 s: they took 15-18 s while the suite ran.
describe('plan input that fights back', { timeout: HOSTILE_TEST_TIMEOUT }, () => {
  it('planUpdated takes any value without throwing; the bar stays an integer in 0–99 that never goes back (property, time-limited)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(withHostileHoles(planUpdate), { maxLength: 6 }), async (updates) => {
        let t = 0;
        const tracker = new ProgressTracker({ maxIterations: 20, clock: { ...systemClock, now: () => t } });
        let last = 0;
        for (const update of updates) {
          tracker.iterationStarted();
          t += 1000;
          tracker.planUpdated(update() as { items: [] });
          tracker.iterationFinished();
          expect(Number.isInteger(tracker.percent) && tracker.percent >= last && tracker.percent <= 99).toBe(true);
          last = tracker.percent;
        }
        await Promise.resolve();
      }),
      HOSTILE_RUN,
    );
  });

  it('replayProgress skips events it cannot read and never throws on a list (property, time-limited)', async () => {
    const event = fc.oneof(
      planUpdate.map((e) => ({ ...e, ts: 5 })),
      fc.constantFrom(
        { type: 'step.started', ts: 1 },
        { type: 'step.finished', ts: 2 },
        { type: 'plan.updated', ts: 3, total: 1e9, completed: -1, inProgress: 2 },
      ),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(withHostileHoles(event), { maxLength: 8 }), async (events) => {
        const points = replayProgress(events.map((make) => make()));
        for (const p of points) expect(Number.isInteger(p.percent) && p.percent >= 0 && p.percent <= 100).toBe(true);
        await Promise.resolve();
      }),
      HOSTILE_RUN,
    );
  });
});

describe('an ETA calibration that fights back', { timeout: HOSTILE_TEST_TIMEOUT }, () => {
  const bin = fc.record({ belowPercent: fc.double(), low: fc.double(), mid: fc.double(), high: fc.double() });
  const table = fc.record({ plan: fc.array(bin, { maxLength: 4 }), iterations: fc.array(bin, { maxLength: 4 }) });

  it('is either accepted with finite ETAs or refused with an EstimatorError naming etaCalibration, never a crash (property, time-limited)', async () => {
    await fc.assert(
      fc.asyncProperty(withHostileHoles(table), async (make) => {
        let t = 0;
        let tracker: ProgressTracker;
        try {
          tracker = new ProgressTracker({ maxIterations: 10, clock: { ...systemClock, now: () => t }, etaCalibration: make() as never });
        } catch (error) {
          expect(error).toBeInstanceOf(EstimatorError);
          expect((error as Error).message).toContain('etaCalibration');
          return;
        }
        for (let i = 0; i < 4; i++) {
          tracker.iterationStarted();
          t += 1000;
          tracker.iterationFinished();
          for (const v of [tracker.etaMs, tracker.etaLowMs, tracker.etaHighMs])
            if (v !== undefined) expect(Number.isFinite(v) && v >= 0).toBe(true);
        }
        await Promise.resolve();
      }),
      HOSTILE_RUN,
    );
  });
});
