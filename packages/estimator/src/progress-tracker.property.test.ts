import { ManualClock, type PlanItem } from '@headway/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ProgressTracker, type ProgressEmission } from './progress-tracker.js';
import type { WeightedStep } from './step-ranges.js';
import type { TaskHistory } from './task-history.js';

/** What a tracker's readers see at one moment. */
function reading(tracker: ProgressTracker): unknown[] {
  return [tracker.percent, tracker.etaMs, tracker.etaLowMs, tracker.etaHighMs, tracker.etaEvidence, tracker.guess, tracker.planNumber];
}

/** The internals the eager tracker is built from (private in the class, reachable in a test). */
interface Internals {
  update(): void;
  settleEta(): void;
}

/**
 * The tracker as it was first written: the ETA worked out inside every update, whatever the
 * update emits. A lazy tracker must show the very same events and readings.
 */
function eager(tracker: ProgressTracker): ProgressTracker {
  const internals = tracker as unknown as Internals;
  const update = Object.getPrototypeOf(tracker) as Internals;
  internals.update = function (this: Internals): void {
    update.update.call(this);
    this.settleEta();
  };
  return tracker;
}

type Op =
  | { op: 'advance'; ms: number }
  | { op: 'iterationStarted' | 'toolsStarted' | 'iterationFinished' | 'tick' | 'complete' | 'read'; child?: number | undefined }
  | { op: 'toolCallFinished'; name: string; child?: number | undefined }
  | { op: 'reportModelProgress'; percent: number; message?: string | undefined; child?: number | undefined }
  | { op: 'stepStarted' | 'stepFinished' | 'setMessage'; name: string }
  | { op: 'setStalled'; stalled: boolean }
  | { op: 'planUpdated'; items: PlanItem[] }
  | { op: 'child'; range: string | { start: number; end: number }; maxIterations?: number | undefined };

const childIndex = fc.option(fc.nat(3), { nil: undefined });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({ op: fc.constant('advance' as const), ms: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 20_000 })) }),
  },
  {
    weight: 8,
    arbitrary: fc.record({
      op: fc.constantFrom('iterationStarted', 'toolsStarted', 'iterationFinished', 'tick', 'read' as const),
      child: childIndex,
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('complete' as const), child: childIndex }) },
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant('toolCallFinished' as const),
      name: fc.constantFrom('read_file', 'list_issues', 'queue_next'),
      child: childIndex,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record(
      {
        op: fc.constant('reportModelProgress' as const),
        percent: fc.integer({ min: -10, max: 110 }),
        message: fc.constantFrom('a', 'b'),
        child: childIndex,
      },
      { requiredKeys: ['op', 'percent'] },
    ),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constantFrom('stepStarted', 'stepFinished', 'setMessage' as const),
      name: fc.constantFrom('plan', 'build', 'other'),
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('setStalled' as const), stalled: fc.boolean() }) },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('planUpdated' as const),
      items: fc.array(
        fc.record({ text: fc.constantFrom('x', 'y', 'z'), status: fc.constantFrom('pending', 'in_progress', 'completed' as const) }),
        {
          maxLength: 6,
        },
      ),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record(
      {
        op: fc.constant('child' as const),
        range: fc.oneof(fc.constantFrom('plan', 'build'), fc.constant({ start: 20, end: 60 })),
        maxIterations: fc.integer({ min: 1, max: 20 }),
      },
      { requiredKeys: ['op', 'range'] },
    ),
  },
);

const STEPS: WeightedStep[] = [
  { name: 'plan', weight: 1 },
  { name: 'build', weight: 3 },
];

const optionsArb = fc.record({
  maxIterations: fc.oneof(fc.integer({ min: 1, max: 60 }), fc.constant(Number.POSITIVE_INFINITY)),
  steps: fc.option(fc.constant(STEPS), { nil: undefined }),
  history: fc.option(
    fc.record({
      runs: fc.array(fc.record({ roundtrips: fc.integer({ min: 1, max: 40 }), durationMs: fc.integer({ min: 1, max: 600_000 }) }), {
        minLength: 1,
        maxLength: 8,
      }),
    }),
    { nil: undefined },
  ),
});

/** Plays `ops` on a tracker (eager or not) and returns what it emitted and every reading taken. */
function play(
  options: { maxIterations: number; steps: WeightedStep[] | undefined; history: TaskHistory | undefined },
  ops: Op[],
  make: (t: ProgressTracker) => ProgressTracker,
): unknown[] {
  const clock = new ManualClock({ start: 1_000 });
  const seen: unknown[] = [];
  const root = make(
    new ProgressTracker({
      maxIterations: options.maxIterations,
      clock,
      emit: (body: ProgressEmission) => seen.push({ ...body }),
      ...(options.steps === undefined ? {} : { steps: options.steps }),
      ...(options.history === undefined ? {} : { history: options.history }),
    }),
  );
  const children: ProgressTracker[] = [];
  const on = (child: number | undefined): ProgressTracker =>
    child === undefined ? root : (children[child % Math.max(1, children.length)] ?? root);
  for (const o of ops) {
    switch (o.op) {
      case 'advance':
        clock.advanceSync(o.ms);
        break;
      case 'read':
        seen.push(reading(on(o.child)));
        break;
      case 'iterationStarted':
      case 'toolsStarted':
      case 'iterationFinished':
      case 'tick':
      case 'complete':
        on(o.child)[o.op]();
        break;
      case 'toolCallFinished':
        on(o.child).toolCallFinished(o.name, true);
        break;
      case 'reportModelProgress':
        on(o.child).reportModelProgress(o.message === undefined ? { percent: o.percent } : { percent: o.percent, message: o.message });
        break;
      case 'stepStarted':
      case 'stepFinished':
      case 'setMessage':
        root[o.op](o.name);
        break;
      case 'setStalled':
        root.setStalled(o.stalled);
        break;
      case 'planUpdated':
        root.planUpdated({ items: o.items });
        break;
      case 'child':
        try {
          children.push(make(root.child(o.range, o.maxIterations === undefined ? {} : { maxIterations: o.maxIterations })));
        } catch {
          // A step the options do not have: nothing was made.
        }
        break;
    }
  }
  seen.push(reading(root), root.toJSON());
  return seen;
}

describe('ProgressTracker computes its ETA only when it is read', () => {
  it('emits the same events and reads the same values as computing it at every update (property)', () => {
    let etas = 0;
    fc.assert(
      fc.property(optionsArb, fc.array(opArb, { maxLength: 80 }), (options, ops) => {
        const lazy = play(options, ops, (t) => t);
        expect(lazy).toEqual(play(options, ops, eager));
        etas += lazy.filter((x) => typeof x === 'object' && x !== null && 'etaMs' in x).length;
      }),
      { numRuns: 400 },
    );
    // The runs do reach ETAs, so the comparison covers them.
    expect(etas).toBeGreaterThan(50);
  });

  it('after a stall keeps the evidence the update before it computed', () => {
    const clock = new ManualClock({ start: 0 });
    const tracker = new ProgressTracker({ maxIterations: 10, clock });
    for (let i = 0; i < 3; i++) {
      tracker.iterationStarted();
      clock.advanceSync(1_000);
      tracker.iterationFinished();
    }
    tracker.setStalled(true);
    expect([tracker.etaMs, tracker.etaEvidence]).toEqual([undefined, 'iterations']);
  });
});
