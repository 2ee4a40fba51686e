// fast-check generators shared by this package's tests.
import type { ProgressEvent, ProgressEventBody } from '@headway/protocol';
import fc from 'fast-check';

const text = fc.string({ maxLength: 30 });
const ms = fc.integer({ min: 0, max: 10_000_000 });
const count = fc.nat({ max: 10_000 });
const limit = fc.constantFrom('iterations' as const, 'time' as const, 'cost' as const);
const lines = fc.array(text, { maxLength: 3 });

/** Valid event bodies of every type (optional keys sometimes left out). */
export const bodyArb: fc.Arbitrary<ProgressEventBody> = fc.oneof(
  fc.record({ type: fc.constant('run.started'), agentName: text, task: text }, { requiredKeys: ['type', 'agentName'] }),
  fc.record({ type: fc.constant('step.started'), step: text, description: text }, { requiredKeys: ['type', 'step'] }),
  fc.record({ type: fc.constant('step.finished'), step: text, durationMs: ms }),
  fc.record({ type: fc.constant('thinking'), content: text }),
  fc.record({ type: fc.constant('tool.executing'), toolName: text, toolCallId: text, args: fc.jsonValue() }, { requiredKeys: ['type', 'toolName'] }),
  fc.record(
    { type: fc.constant('tool.completed'), toolName: text, toolCallId: text, durationMs: ms, ok: fc.boolean(), preview: text },
    { requiredKeys: ['type', 'toolName', 'durationMs', 'ok'] },
  ),
  fc.record({ type: fc.constant('text.delta'), text }),
  fc.record({ type: fc.constant('progress'), percent: fc.integer({ min: 0, max: 100 }), message: text, etaMs: ms }, { requiredKeys: ['type', 'percent'] }),
  fc.record({ type: fc.constant('intermediate.result'), content: text }),
  fc.record(
    { type: fc.constant('run.finished'), durationMs: ms, tokenCount: count, outcome: fc.constantFrom('completed' as const, 'limit' as const), summary: text },
    { requiredKeys: ['type', 'durationMs', 'outcome'] },
  ),
  fc.record({ type: fc.constant('run.error'), error: text }),
  fc.record({ type: fc.constant('run.cancelled'), reason: text }, { requiredKeys: ['type'] }),
  fc.record({ type: fc.constant('iteration'), index: count, max: fc.integer({ min: 1, max: 200 }) }),
  fc.record({ type: fc.constant('limit.approaching'), limit, used: ms, max: ms }),
  fc.record({ type: fc.constant('limit.reached'), limit, used: ms, max: ms }),
  fc.record({ type: fc.constant('wind-down.started'), reason: text, bonusSteps: fc.integer({ min: 1, max: 20 }) }),
  fc.record({ type: fc.constant('timeout.extended'), byMs: ms, totalBudgetMs: ms }),
  fc.record({ type: fc.constant('checkpoint.saved'), checkpointId: fc.string({ minLength: 1, maxLength: 20 }), iteration: count }),
  fc.record({
    type: fc.constant('report.generated'),
    report: fc.record({
      task: text,
      reason: fc.constantFrom('max-iterations' as const, 'time-budget' as const, 'cancelled' as const),
      completedWork: lines,
      keyFindings: lines,
      attemptedInconclusive: lines,
      remaining: lines,
      suggestedNextSteps: lines,
      stats: fc.record({ iterations: count, toolCalls: count, elapsedMs: ms }),
      generatedBy: fc.constantFrom('model' as const, 'fallback' as const),
    }),
  }),
  fc.record({ type: fc.constant('tool.flagged'), toolName: text, toolCallId: text, findings: lines }, { requiredKeys: ['type', 'toolName', 'findings'] }),
  fc.record({ type: fc.constant('strategy.rotated'), toolName: text, failures: fc.integer({ min: 1, max: 20 }) }),
);

/** Valid, enveloped events. */
export const eventArb: fc.Arbitrary<ProgressEvent> = fc
  .tuple(bodyArb, fc.string({ minLength: 1, maxLength: 12 }), fc.integer({ min: 1, max: 1e9 }), fc.integer({ min: 0, max: 4e12 }))
  .map(([body, runId, seq, ts]) => ({ ...body, runId, seq, ts }));

/** A clock that advances 5 ms per call, from `start`. */
export function clock(start = 1_000): () => number {
  let t = start;
  return () => (t += 5);
}

/** A promise with its resolve and reject functions. */
export function deferred(): { promise: Promise<void>; resolve: () => void; reject: (e: unknown) => void } {
  let resolve!: () => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
