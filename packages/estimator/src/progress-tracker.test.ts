import { ManualClock, systemClock, type Clock } from '@headway/protocol';
import fc from 'fast-check';
import { HeadwayError } from '@headway/protocol';
import { describe, expect, it } from 'vitest';
import { HOSTILE_RUN, HOSTILE_TEST_TIMEOUT, hostileString, withHostileHoles } from './hostile.test-util.js';
import { ProgressTracker, type ProgressEmission, type ProgressTrackerOptions } from './progress-tracker.js';
import type { WeightedStep } from './step-ranges.js';
import type { TaskHistory } from './task-history.js';

function codeAndMessage(run: () => unknown): [string, string] {
  try {
    run();
  } catch (e) {
    if (HeadwayError.isInstance(e)) return [e.code, e.message];
    throw e;
  }
  throw new Error('expected a throw');
}

const SEED_STEPS: WeightedStep[] = [
  { name: 'Initial Analysis', weight: 20 },
  { name: 'Generate Content', weight: 60 },
  { name: 'Validate', weight: 20 },
];

function roundtrip(tracker: ProgressTracker, clock: ManualClock, llmMs = 1000, toolMs = 500, tools = 1): void {
  tracker.iterationStarted();
  clock.advanceSync(llmMs);
  tracker.toolsStarted();
  for (let i = 0; i < tools; i++) {
    clock.advanceSync(toolMs);
    tracker.toolCallFinished('read_file', true);
  }
  tracker.iterationFinished();
}

type Op =
  | { kind: 'iterationStarted' | 'toolsStarted' | 'iterationFinished' | 'tick' | 'complete'; target: number; ms: number }
  | { kind: 'toolCallFinished'; target: number; ms: number; ok: boolean }
  | { kind: 'model'; target: number; ms: number; percent: number; message?: string }
  | { kind: 'stepStarted' | 'stepFinished'; target: number; ms: number; step: number }
  | { kind: 'message'; target: number; ms: number; message: string }
  | { kind: 'childRange'; target: number; ms: number; start: number; width: number; cap?: number }
  | { kind: 'childStep'; target: number; ms: number; step: number }
  | { kind: 'plan'; target: number; ms: number; total: number; done: number; active: boolean };

const target = fc.nat(20);
const ms = fc.nat(60_000);
const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 25,
    arbitrary: fc.record({
      kind: fc.constantFrom('iterationStarted' as const, 'toolsStarted' as const, 'iterationFinished' as const, 'tick' as const),
      target,
      ms,
    }),
  },
  { weight: 15, arbitrary: fc.record({ kind: fc.constant('toolCallFinished' as const), target, ms, ok: fc.boolean() }) },
  {
    weight: 2,
    arbitrary: fc.record(
      {
        kind: fc.constant('model' as const),
        target,
        ms,
        percent: fc.oneof(fc.double({ min: -50, max: 200, noNaN: true }), fc.integer({ min: 0, max: 100 })),
        message: fc.string({ maxLength: 8 }),
      },
      { requiredKeys: ['kind', 'target', 'ms', 'percent'] },
    ),
  },
  {
    weight: 10,
    arbitrary: fc.record({ kind: fc.constantFrom('stepStarted' as const, 'stepFinished' as const), target, ms, step: fc.nat(3) }),
  },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('message' as const), target, ms, message: fc.string({ maxLength: 8 }) }) },
  {
    weight: 1,
    arbitrary: fc.record(
      {
        kind: fc.constant('childRange' as const),
        target,
        ms,
        start: fc.integer({ min: 0, max: 90 }),
        width: fc.integer({ min: 0, max: 100 }),
        cap: fc.integer({ min: 1, max: 40 }),
      },
      { requiredKeys: ['kind', 'target', 'ms', 'start', 'width'] },
    ),
  },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('childStep' as const), target, ms, step: fc.nat(2) }) },
  // The agent's plan: kept, finished and replaced (plans as phases), any order.
  {
    weight: 8,
    arbitrary: fc
      .record({
        kind: fc.constant('plan' as const),
        target,
        ms,
        total: fc.integer({ min: 1, max: 6 }),
        done: fc.nat(6),
        active: fc.boolean(),
      })
      .map((op) => ({ ...op, done: Math.min(op.done, op.total) })),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('complete' as const), target: fc.integer({ min: 1, max: 20 }), ms }) },
);

const optionsArb = fc.record({
  maxIterations: fc.oneof(fc.integer({ min: 1, max: 60 }), fc.constant(Number.POSITIVE_INFINITY)),
  aiDriven: fc.boolean(),
  steps: fc.oneof(fc.constant(undefined), fc.constant(SEED_STEPS)),
  history: fc.oneof(
    fc.constant(undefined),
    fc.record({
      runs: fc.array(fc.record({ roundtrips: fc.integer({ min: 1, max: 200 }), durationMs: fc.integer({ min: 0, max: 3_600_000 }) }), {
        maxLength: 12,
      }),
    }),
  ),
});

describe('ProgressTracker invariants (random event sequences)', () => {
  it('every tracker shows an integer 0–100 that never decreases, at most 99 until complete() and exactly 100 after', () => {
    fc.assert(
      fc.property(optionsArb, fc.array(opArb, { maxLength: 80 }), (options, ops) => {
        const clock = new ManualClock({ start: 1_000_000 });
        const emitted: ProgressEmission[] = [];
        const root = new ProgressTracker({
          maxIterations: options.maxIterations,
          aiDriven: options.aiDriven,
          clock,
          emit: (b) => emitted.push(b),
          ...(options.steps === undefined ? {} : { steps: options.steps }),
          ...(options.history === undefined ? {} : { history: options.history }),
        });
        const trackers: { tracker: ProgressTracker; steps: boolean; done: boolean; last: number }[] = [
          { tracker: root, steps: options.steps !== undefined, done: false, last: 0 },
        ];
        const run = (op: Op): void => {
          clock.advanceSync(op.ms);
          const slot = trackers[op.target % trackers.length]!;
          const t = slot.tracker;
          switch (op.kind) {
            case 'iterationStarted':
            case 'toolsStarted':
            case 'iterationFinished':
            case 'tick':
              t[op.kind]();
              break;
            case 'complete':
              t.complete();
              slot.done = true;
              break;
            case 'toolCallFinished':
              // Now and then a queue tool: the run holds several plans.
              t.toolCallFinished(op.ms % 7 === 0 ? 'mcp__issues__issue_ready' : 'bash', op.ok);
              break;
            case 'plan':
              t.planUpdated({
                items: Array.from({ length: op.total }, (_, i) => ({
                  text: `item ${i}`,
                  status: i < op.done ? 'completed' : i === op.done && op.active ? 'in_progress' : 'pending',
                })),
              });
              break;
            case 'model':
              t.reportModelProgress(op.message === undefined ? { percent: op.percent } : { percent: op.percent, message: op.message });
              break;
            case 'stepStarted':
            case 'stepFinished':
              t[op.kind](SEED_STEPS[op.step]?.name ?? 'unknown step');
              break;
            case 'message':
              t.setMessage(op.message);
              break;
            case 'childRange': {
              const child = t.child(
                { start: op.start, end: Math.min(100, op.start + op.width) },
                op.cap === undefined ? {} : { maxIterations: op.cap },
              );
              trackers.push({ tracker: child, steps: false, done: false, last: 0 });
              break;
            }
            case 'childStep':
              if (slot.steps)
                trackers.push({ tracker: t.child(SEED_STEPS[op.step]!.name, { steps: SEED_STEPS }), steps: true, done: false, last: 0 });
              break;
          }
          for (const s of trackers) {
            const p = s.tracker.percent;
            expect(Number.isInteger(p) && p >= 0 && p <= 100).toBe(true);
            expect(p).toBeGreaterThanOrEqual(s.last);
            if (s.done) expect(p).toBe(100);
            else expect(p).toBeLessThanOrEqual(99);
            s.last = p;
            const eta = s.tracker.etaMs;
            if (eta !== undefined) expect(Number.isFinite(eta) && eta >= 0).toBe(true);
          }
        };
        for (const op of ops) run(op);
        root.complete();
        trackers[0]!.done = true;
        expect(root.percent).toBe(100);
        run({ kind: 'iterationStarted', target: 0, ms: 5 });
        expect(root.percent).toBe(100);
        // Emissions: integers that never decrease, each differing from the one before.
        for (const [i, body] of emitted.entries()) {
          expect(body.type).toBe('progress');
          expect(Number.isInteger(body.percent) && body.percent >= 0 && body.percent <= 100).toBe(true);
          const prev = emitted[i - 1];
          if (prev !== undefined) {
            expect(body.percent).toBeGreaterThanOrEqual(prev.percent);
            expect(
              body.percent !== prev.percent || body.message !== prev.message || body.guess !== prev.guess || body.plan !== prev.plan,
            ).toBe(true);
          }
          // A guess comes without an ETA, and the end is never a guess.
          if (body.guess === true) expect([body.etaMs, body.percent === 100]).toEqual([undefined, false]);
          if (i < emitted.length - 1) expect(body.percent).toBeLessThanOrEqual(99);
        }
        expect(emitted.at(-1)?.percent).toBe(100);
      }),
      { numRuns: 400 },
    );
  });

  it('restoring a saved state at any point continues from the same percent', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.array(fc.tuple(fc.nat(3), fc.nat(30_000)), { maxLength: 60 }), (cap, events) => {
        const clock = new ManualClock({ start: 1_000_000 });
        const a = new ProgressTracker({ maxIterations: cap, clock, steps: SEED_STEPS });
        const ops = [
          () => {
            a.iterationStarted();
          },
          () => {
            a.toolsStarted();
          },
          () => {
            a.toolCallFinished('x', true);
          },
          () => {
            a.iterationFinished();
          },
        ];
        for (const [op, wait] of events) {
          clock.advanceSync(wait);
          ops[op]!();
        }
        const saved: unknown = JSON.parse(JSON.stringify(a));
        const b = new ProgressTracker({ maxIterations: cap, clock, steps: SEED_STEPS, state: saved });
        expect(b.percent).toBe(a.percent);
        expect(b.toJSON()).toEqual(a.toJSON());
        b.iterationStarted();
        expect(b.percent).toBeGreaterThanOrEqual(a.percent);
      }),
    );
  });
});

describe('ProgressTracker', () => {
  it('emits only when the integer percent or the message changes', () => {
    const clock = new ManualClock({ start: 1_000_000 });
    const emitted: ProgressEmission[] = [];
    const t = new ProgressTracker({ maxIterations: 10, clock, emit: (b) => emitted.push(b) });
    t.iterationStarted();
    t.toolsStarted();
    t.toolCallFinished('a', true);
    t.setMessage('Reading files');
    t.setMessage('Reading files');
    t.tick();
    t.iterationFinished();
    t.complete();
    t.complete();
    expect(emitted).toEqual([
      { type: 'progress', percent: 26 },
      { type: 'progress', percent: 26, message: 'Reading files' },
      { type: 'progress', percent: 28, message: 'Reading files' },
      { type: 'progress', percent: 100, message: 'Reading files' },
    ]);
  });

  it('gives no ETA until two roundtrips are observed, then one from their durations', () => {
    const clock = new ManualClock({ start: 1_000_000 });
    const t = new ProgressTracker({ maxIterations: 20, clock });
    expect(t.etaMs).toBeUndefined();
    roundtrip(t, clock, 2000, 1000);
    expect(t.etaMs).toBeUndefined();
    roundtrip(t, clock, 2000, 1000);
    const eta = t.etaMs;
    expect(eta).toBeDefined();
    // Whole roundtrips left (at most the cap minus two) times 3 s each.
    expect(eta! % 1).toBe(0);
    expect(eta!).toBeGreaterThan(0);
    expect(eta!).toBeLessThanOrEqual(18 * 3000);
    t.complete();
    expect(t.etaMs).toBeUndefined();
  });

  it('has no ETA without a basis: a worker with no cap and no history', () => {
    const clock = new ManualClock({ start: 1_000_000 });
    const worker = new ProgressTracker({ maxIterations: Number.POSITIVE_INFINITY, clock });
    for (let i = 0; i < 5; i++) roundtrip(worker, clock);
    expect(worker.etaMs).toBeUndefined();
  });

  it('is calibrated by history: a task that usually takes 4 roundtrips is not at 10% after its first of 30', () => {
    const history = { runs: Array.from({ length: 10 }, (_, i) => ({ roundtrips: 3 + (i % 3), durationMs: 40_000 })) };
    const clock = new ManualClock({ start: 1_000_000 });
    const calibrated = new ProgressTracker({ maxIterations: 30, clock, history });
    const naive = new ProgressTracker({ maxIterations: 30, clock });
    roundtrip(calibrated, clock);
    roundtrip(naive, clock);
    expect(calibrated.percent).toBeGreaterThanOrEqual(20);
    for (let i = 0; i < 3; i++) {
      roundtrip(calibrated, clock);
      roundtrip(naive, clock);
    }
    // Four roundtrips in: about done for this kind of task, far from it for an unknown one.
    expect(calibrated.percent).toBeGreaterThanOrEqual(55);
    expect(calibrated.percent).toBeGreaterThan(naive.percent + 10);
    expect(calibrated.etaMs!).toBeLessThan(naive.etaMs!);
  });

  it('lets the clock move the bar inside a long roundtrip once three were seen, but not past it', () => {
    const clock = new ManualClock({ start: 1_000_000 });
    const t = new ProgressTracker({ maxIterations: 10, clock });
    roundtrip(t, clock, 1000, 1000);
    t.iterationStarted();
    // One roundtrip is no pace: the clock alone does not move the bar yet.
    const early = t.percent;
    clock.advanceSync(1500);
    t.tick();
    expect(t.percent).toBe(early);
    t.iterationFinished();
    roundtrip(t, clock, 1000, 1000);
    t.iterationStarted();
    const atStart = t.percent;
    clock.advanceSync(1000);
    t.tick();
    expect(t.percent).toBeGreaterThan(atStart);
    clock.advanceSync(10_000_000);
    t.tick();
    const stalled = t.percent;
    t.iterationFinished();
    expect(t.percent).toBeGreaterThanOrEqual(stalled);
    expect(stalled).toBeLessThan(99);
  });

  it('trusts validated model progress when aiDriven, and only its message otherwise', () => {
    const clock = new ManualClock({ start: 1_000_000 });
    const ai = new ProgressTracker({ maxIterations: 30, clock });
    const manual = new ProgressTracker({ maxIterations: 30, clock, aiDriven: false });
    for (const t of [ai, manual]) {
      t.iterationStarted();
      t.reportModelProgress({ percent: 60, message: 'Drafting' });
    }
    expect(ai.percent).toBe(60);
    expect(manual.percent).toBe(0);
    ai.reportModelProgress({ percent: 150 });
    expect(ai.percent).toBe(99);
  });

  it('advances weighted steps through their slices, +10 local per tool call up to 80', () => {
    const clock = new ManualClock({ start: 1_000_000 });
    const t = new ProgressTracker({ maxIterations: Number.POSITIVE_INFINITY, clock, steps: SEED_STEPS });
    t.stepStarted('Initial Analysis');
    expect(t.percent).toBe(10);
    t.stepFinished('Initial Analysis');
    expect(t.percent).toBe(26);
    t.stepStarted('Generate Content');
    for (let i = 0; i < 5; i++) t.toolCallFinished('write', true);
    expect(t.percent).toBe(50);
    for (let i = 0; i < 20; i++) t.toolCallFinished('write', true);
    expect(t.percent).toBe(64); // 26 + 80% of 48
    t.stepFinished('Generate Content');
    t.stepStarted('Validate');
    t.stepFinished('Validate');
    expect(t.percent).toBeGreaterThanOrEqual(90);
    expect(t.percent).toBeLessThanOrEqual(99);
    t.complete();
    expect(t.percent).toBe(100);
  });

  it('walks fallback steps that are never started by name with the roundtrip estimate', () => {
    const clock = new ManualClock({ start: 1_000_000 });
    const t = new ProgressTracker({ maxIterations: 10, clock, steps: SEED_STEPS, aiDriven: false });
    const seen: number[] = [];
    for (let i = 0; i < 6; i++) {
      t.iterationStarted();
      clock.advanceSync(1000);
      t.toolsStarted();
      t.toolCallFinished('search', true);
      t.iterationFinished();
      seen.push(t.percent);
    }
    // Not stuck at the start of the first step: the bar moves through the steps' span.
    expect(seen.at(-1)).toBeGreaterThan(26);
    expect(seen.at(-1)).toBeLessThanOrEqual(90);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
  });

  it('maps a worker into its step: 50% of Generate Content (26–74) is 50%, and a range 30–60 gives 45%', () => {
    const clock = new ManualClock({ start: 1_000_000 });
    const manager = new ProgressTracker({ maxIterations: 10, clock, steps: SEED_STEPS, aiDriven: false });
    const worker = manager.child('Generate Content');
    worker.reportModelProgress({ percent: 50, message: 'Writing section 2' });
    expect(manager.percent).toBe(50);
    const emitted: ProgressEmission[] = [];
    const other = new ProgressTracker({ maxIterations: 10, clock, aiDriven: false, emit: (b) => emitted.push(b) });
    other.child({ start: 30, end: 60 }).reportModelProgress({ percent: 50, message: 'Halfway' });
    expect(emitted).toEqual([{ type: 'progress', percent: 45, message: 'Halfway' }]);
  });

  it('counts parallel members of a step as their mean', () => {
    const clock = new ManualClock({ start: 1_000_000 });
    const manager = new ProgressTracker({ maxIterations: 10, clock, steps: SEED_STEPS });
    const analyzer = manager.child('Initial Analysis');
    const planner = manager.child('Initial Analysis');
    analyzer.complete();
    expect(manager.percent).toBe(18);
    planner.reportModelProgress({ percent: 50 });
    expect(manager.percent).toBe(22);
  });

  it('falls back to +10 per tool call (up to 80) for a worker that never reports', () => {
    const clock = new ManualClock({ start: 1_000_000 });
    const manager = new ProgressTracker({ maxIterations: 10, clock });
    const worker = manager.child({ start: 20, end: 70 });
    for (let i = 0; i < 3; i++) worker.toolCallFinished('search', true);
    expect(worker.percent).toBe(30);
    expect(manager.percent).toBe(35);
    for (let i = 0; i < 10; i++) worker.toolCallFinished('search', true);
    expect(worker.percent).toBe(80);
    expect(manager.percent).toBe(60);
    worker.complete();
    expect(manager.percent).toBe(70);
  });

  it('nests to any depth: manager → worker → sub-agent → an MCP tool', () => {
    const clock = new ManualClock({ start: 1_000_000 });
    const manager = new ProgressTracker({ maxIterations: 10, clock, aiDriven: false });
    const worker = manager.child({ start: 0, end: 100 });
    const subAgent = worker.child({ start: 50, end: 100 });
    const mcpTool = subAgent.child({ start: 0, end: 50 });
    mcpTool.reportModelProgress({ percent: (30 / 60) * 100 }); // the tool's own progress 30 of 60
    expect(subAgent.percent).toBe(25);
    expect(worker.percent).toBe(63);
    expect(manager.percent).toBe(63);
  });

  it('rejects bad options and a bad child range with ESTIMATOR_INVALID_ARGUMENT', () => {
    expect(codeAndMessage(() => new ProgressTracker({ maxIterations: 0 }))).toEqual([
      'ESTIMATOR_INVALID_ARGUMENT',
      'ProgressTracker: options.maxIterations must be a number >= 1 (or Infinity), got 0',
    ]);
    expect(() => new ProgressTracker({ maxIterations: Number.NaN })).toThrow(/maxIterations/);
    const t = new ProgressTracker({ maxIterations: 5, steps: SEED_STEPS });
    expect(codeAndMessage(() => t.child('Nope'))).toEqual([
      'ESTIMATOR_INVALID_ARGUMENT',
      'ProgressTracker.child: step names no step: "Nope"',
    ]);
    expect(codeAndMessage(() => t.child({ start: 60, end: 30 }))).toEqual([
      'ESTIMATOR_INVALID_ARGUMENT',
      'ProgressTracker.child: range must satisfy 0 <= start <= end <= 100, got 60–30',
    ]);
  });

  it('reads time from its clock; a clock without now() is rejected', () => {
    const clock = new ManualClock({ start: 1_000_000 });
    const a = new ProgressTracker({ maxIterations: 5, clock });
    clock.advanceSync(2_500);
    expect(a.toJSON().elapsedMs).toBe(2_500);
    expect(codeAndMessage(() => new ProgressTracker({ maxIterations: 5, clock: {} as Clock }))).toEqual([
      'ESTIMATOR_INVALID_ARGUMENT',
      'ProgressTracker: options.clock must be a Clock with now(), got [object]',
    ]);
  });

  it('rejects a history that is not { runs } with a typed error naming it, not a TypeError', () => {
    expect(codeAndMessage(() => new ProgressTracker({ maxIterations: 5, history: [] as unknown as TaskHistory }))).toEqual([
      'ESTIMATOR_INVALID_ARGUMENT',
      'ProgressTracker: options.history: invalid input: expected object, received array',
    ]);
    expect(
      codeAndMessage(() => new ProgressTracker({ maxIterations: 5, history: { runs: [{ roundtrips: 0, durationMs: 1 }] } }))[1],
    ).toMatch(/^ProgressTracker: options\.history\.runs\[0\]\.roundtrips: /);
  });

  it('rejects options and state that fight back (a revoked proxy, throwing getters) with typed errors', () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(codeAndMessage(() => new ProgressTracker(proxy as ProgressTrackerOptions))[0]).toBe('ESTIMATOR_INVALID_ARGUMENT');
    expect(codeAndMessage(() => new ProgressTracker({ maxIterations: 5, state: proxy }))[0]).toBe('ESTIMATOR_INVALID_STATE');
    expect(codeAndMessage(() => new ProgressTracker({ maxIterations: 5, steps: [proxy as WeightedStep] }))[0]).toBe(
      'ESTIMATOR_INVALID_ARGUMENT',
    );
    expect(codeAndMessage(() => new ProgressTracker(null as unknown as ProgressTrackerOptions))).toEqual([
      'ESTIMATOR_INVALID_ARGUMENT',
      'ProgressTracker: options must be an object, got null',
    ]);
  });

  it('lists at most 20 issues of an invalid state, and says how many more', () => {
    const state = { ...new ProgressTracker({ maxIterations: 5 }).toJSON(), finishedSteps: Array.from({ length: 1_000 }, () => 7) };
    try {
      new ProgressTracker({ maxIterations: 5, state });
      expect.unreachable();
    } catch (e) {
      const error = e as HeadwayError;
      expect(error.issues).toHaveLength(21);
      expect(error.issues[20]).toEqual({ path: '', message: 'and 980 more issues' });
      expect(error.message.length).toBeLessThan(2_000);
    }
    expect(
      codeAndMessage(
        () => new ProgressTracker({ maxIterations: 5, state: { ...state, finishedSteps: Array.from({ length: 100_000 }, () => 7) } }),
      ),
    ).toEqual(['ESTIMATOR_INVALID_STATE', 'Invalid progress tracker state: finishedSteps: has 100000 entries; the limit is 1000']);
  });

  it(
    'restores from any saved state or throws ESTIMATOR_INVALID_STATE (property, hostile generators, time-limited)',
    async () => {
      const saved = fc
        .record({
          percent: fc.integer({ min: -5, max: 120 }),
          roundtrips: fc.integer({ min: -1, max: 50 }),
          message: fc.option(hostileString, { nil: undefined }),
        })
        .map(({ percent, roundtrips, message }) => ({
          ...new ProgressTracker({ maxIterations: 5 }).toJSON(),
          percent,
          roundtrips,
          ...(message === undefined ? {} : { message }),
        }));
      await fc.assert(
        fc.asyncProperty(withHostileHoles(saved), async (state) => {
          try {
            const t = new ProgressTracker({ maxIterations: 10, state: state() });
            t.iterationStarted();
            expect(t.percent >= 0 && t.percent <= 100).toBe(true);
          } catch (e) {
            expect(HeadwayError.isInstance(e, 'ESTIMATOR_INVALID_STATE')).toBe(true);
          }
          await Promise.resolve();
        }),
        HOSTILE_RUN,
      );
    },
    HOSTILE_TEST_TIMEOUT,
  );

  it('rejects an invalid saved state, naming the path', () => {
    try {
      new ProgressTracker({ maxIterations: 5, state: { version: 1, percent: 250 } });
      expect.unreachable();
    } catch (e) {
      expect(HeadwayError.isInstance(e, 'ESTIMATOR_INVALID_STATE')).toBe(true);
      expect((e as Error).message).toMatch(/^Invalid progress tracker state: percent: .*; completed: /);
    }
  });

  it('never lets a throwing emit break the run', () => {
    const t = new ProgressTracker({
      maxIterations: 3,
      emit: () => {
        throw new Error('sink down');
      },
    });
    expect(() => {
      t.iterationStarted();
      t.reportModelProgress({ percent: 40 });
      t.complete();
    }).not.toThrow();
    expect(t.percent).toBe(100);
  });
});

describe('ProgressTracker with history', () => {
  it('gives an ETA after the first roundtrip: history of this kind of task is evidence', () => {
    let t = 0;
    const seen: ProgressEmission[] = [];
    const history = { runs: [4, 5, 6].map((roundtrips) => ({ roundtrips, durationMs: roundtrips * 2000 })) };
    // The raw estimate (an identity calibration); the shipped calibration is tested in eta-calibration.test.ts.
    const bin = { belowPercent: 101, low: 0, mid: 0, high: 0 };
    const etaCalibration = { plan: [bin], iterations: [bin] };
    const tracker = new ProgressTracker({
      maxIterations: 30,
      clock: { ...systemClock, now: () => t },
      history,
      etaCalibration,
      emit: (b) => seen.push(b),
    });
    const plain = new ProgressTracker({ maxIterations: 30, clock: { ...systemClock, now: () => t } });
    for (const tr of [tracker, plain]) tr.iterationStarted();
    t = 2000;
    for (const tr of [tracker, plain]) tr.iterationFinished();
    expect(plain.etaMs).toBeUndefined();
    expect(tracker.etaMs).toBeGreaterThan(0);
    // About 5 roundtrips of 2 s in all, one done: the rest is 6–10 s.
    expect(2000 + (tracker.etaMs ?? 0)).toBeGreaterThanOrEqual(8000);
    expect(2000 + (tracker.etaMs ?? 0)).toBeLessThanOrEqual(12_000);
    expect(seen.at(-1)?.etaMs).toBe(tracker.etaMs);
  });
});

describe('ProgressTracker while stalled', () => {
  it('freezes the percent and drops the ETA while stalled, and moves on once the stall clears', () => {
    const clock = new ManualClock({ start: 0 });
    const emitted: ProgressEmission[] = [];
    const tracker = new ProgressTracker({ maxIterations: 10, clock, emit: (body) => emitted.push(body) });
    roundtrip(tracker, clock);
    roundtrip(tracker, clock);
    const before = tracker.percent;
    expect(tracker.etaMs).toBeDefined();
    tracker.setStalled(true);
    expect(tracker.isStalled).toBe(true);
    expect(emitted.at(-1)).toEqual({ type: 'progress', percent: before });
    for (let i = 0; i < 4; i++) roundtrip(tracker, clock);
    expect(tracker.percent).toBe(before);
    expect(tracker.etaMs).toBeUndefined();
    tracker.setStalled(false);
    roundtrip(tracker, clock);
    expect(tracker.percent).toBeGreaterThan(before);
    expect(tracker.etaMs).toBeDefined();
  });
});
