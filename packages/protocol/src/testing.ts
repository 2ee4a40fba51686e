// Test helpers for code that consumes progress events. A separate entry
// (`@headway/protocol/testing`) so fast-check stays out of the main import; install
// fast-check yourself to use it (it is an optional peer dependency).
import fc from 'fast-check';
import type { ProgressEvent, ProgressEventBody, RunLimits } from './events.js';
import { STOP_REASONS, type ProgressReport } from './progress-report.js';

const ms = fc.integer({ min: 0, max: 10_000_000 });
const count = fc.nat({ max: 10_000 });
const limit = fc.constantFrom('iterations' as const, 'time' as const, 'cost' as const);
const stallKind = fc.constantFrom(
  'repeated-call' as const,
  'repeated-failure' as const,
  'ping-pong' as const,
  'no-progress' as const,
  'repeated-text' as const,
);

function rec<T>(shape: { [K in keyof T]: fc.Arbitrary<T[K]> }, requiredKeys: (keyof T)[]): fc.Arbitrary<T> {
  return fc.record(shape, { requiredKeys });
}

/** Options of {@link progressEventArbitraries}. */
export interface ProgressEventArbitraryOptions {
  /** Text of every string field (default short arbitrary strings). */
  text?: fc.Arbitrary<string>;
  /** `args` of `tool.executing` (default any JSON value). */
  json?: fc.Arbitrary<unknown>;
}

/** The generators {@link progressEventArbitraries} returns. */
export interface ProgressEventArbitraries {
  report: fc.Arbitrary<ProgressReport>;
  body: fc.Arbitrary<ProgressEventBody>;
  event: fc.Arbitrary<ProgressEvent>;
}

/**
 * fast-check generators of valid progress events, for property tests of anything that
 * consumes them (reporters, sinks, transports). Every event type is covered, optional
 * fields are sometimes left out, and `JSON.parse(JSON.stringify(e))` equals `e`.
 *
 * @example
 * ```ts
 * import fc from 'fast-check';
 * import { progressEventArbitraries } from '@headway/protocol/testing';
 * fc.assert(fc.property(progressEventArbitraries().event, (e) => { mySink(e); }));
 * ```
 */
export function progressEventArbitraries(options: ProgressEventArbitraryOptions = {}): ProgressEventArbitraries {
  const text = options.text ?? fc.string({ maxLength: 40 });
  // fc.jsonValue() can give -0, which JSON writes as 0: taken through JSON once, every value is one
  // an event can carry over the wire, and the round trip promised above holds.
  const json = options.json ?? fc.jsonValue().map((value) => JSON.parse(JSON.stringify(value)) as fc.JsonValue);
  const report: fc.Arbitrary<ProgressReport> = fc.record({
    task: text,
    reason: fc.constantFrom('max-iterations', 'time-budget', 'negotiated-timeout', 'cost-budget', 'cancelled', 'error', 'stalled'),
    completedWork: fc.array(text, { maxLength: 4 }),
    keyFindings: fc.array(text, { maxLength: 4 }),
    attemptedInconclusive: fc.array(text, { maxLength: 4 }),
    remaining: fc.array(text, { maxLength: 4 }),
    suggestedNextSteps: fc.array(text, { maxLength: 4 }),
    stats: rec<ProgressReport['stats']>(
      { iterations: count, toolCalls: count, elapsedMs: ms, costUsd: fc.double({ min: 0, max: 1000, noNaN: true }) },
      ['iterations', 'toolCalls', 'elapsedMs'],
    ),
    generatedBy: fc.constantFrom('model', 'fallback'),
  });
  const limits: fc.Arbitrary<RunLimits> = rec<RunLimits>(
    { iterations: fc.integer({ min: 1, max: 200 }), time: ms, cost: fc.double({ min: 0, max: 1000, noNaN: true }) },
    [],
  );
  const body: fc.Arbitrary<ProgressEventBody> = fc.oneof(
    rec(
      { type: fc.constant('run.started'), agentName: text, task: text, sessionId: text, limits, parentRunId: fc.string({ minLength: 1 }) },
      ['type', 'agentName'],
    ),
    rec({ type: fc.constant('step.started'), step: text, description: text, provider: text, model: text }, ['type', 'step']),
    rec(
      {
        type: fc.constant('step.finished'),
        step: text,
        durationMs: ms,
        usage: fc.record({ inputTokens: count, outputTokens: count }),
        finishReason: fc.constantFrom('stop', 'tool_calls', 'length', 'content_filter', 'other'),
        costUsd: fc.double({ min: 0, max: 100, noNaN: true }),
      },
      ['type', 'step', 'durationMs'],
    ),
    rec({ type: fc.constant('thinking'), content: text }, ['type', 'content']),
    rec({ type: fc.constant('tool.executing'), toolName: text, toolCallId: text, args: json }, ['type', 'toolName']),
    rec({ type: fc.constant('tool.completed'), toolName: text, toolCallId: text, durationMs: ms, ok: fc.boolean(), preview: text }, [
      'type',
      'toolName',
      'durationMs',
      'ok',
    ]),
    rec({ type: fc.constant('text.delta'), text }, ['type', 'text']),
    rec(
      {
        type: fc.constant('progress'),
        percent: fc.double({ min: 0, max: 100, noNaN: true }),
        message: text,
        etaMs: ms,
        etaLowMs: ms,
        etaHighMs: ms,
        guess: fc.boolean(),
        plan: fc.integer({ min: 1, max: 1000 }),
      },
      ['type', 'percent'],
    ),
    rec({ type: fc.constant('intermediate.result'), content: text }, ['type', 'content']),
    rec(
      {
        type: fc.constant('run.finished'),
        durationMs: ms,
        tokenCount: count,
        outcome: fc.constantFrom('completed' as const, 'limit' as const),
        summary: text,
        stopReason: fc.constantFrom(...STOP_REASONS),
      },
      ['type', 'durationMs', 'outcome'],
    ),
    rec({ type: fc.constant('run.error'), error: text }, ['type', 'error']),
    rec({ type: fc.constant('run.cancelled'), reason: text }, ['type']),
    rec({ type: fc.constant('iteration'), index: count, max: fc.integer({ min: 1, max: 200 }) }, ['type', 'index', 'max']),
    rec({ type: fc.constant('limit.approaching'), limit, used: ms, max: ms }, ['type', 'limit', 'used', 'max']),
    rec({ type: fc.constant('limit.reached'), limit, used: ms, max: ms }, ['type', 'limit', 'used', 'max']),
    rec({ type: fc.constant('wind-down.started'), reason: text, graceIterations: fc.integer({ min: 1, max: 20 }) }, [
      'type',
      'reason',
      'graceIterations',
    ]),
    rec({ type: fc.constant('timeout.extended'), byMs: ms, totalBudgetMs: ms }, ['type', 'byMs', 'totalBudgetMs']),
    rec({ type: fc.constant('checkpoint.saved'), checkpointId: text.filter((s) => s.length > 0), iteration: count }, [
      'type',
      'checkpointId',
      'iteration',
    ]),
    rec({ type: fc.constant('report.generated'), report }, ['type', 'report']),
    rec({ type: fc.constant('tool.flagged'), toolName: text, toolCallId: text, findings: fc.array(text, { maxLength: 3 }) }, [
      'type',
      'toolName',
      'findings',
    ]),
    rec({ type: fc.constant('strategy.rotated'), toolName: text, failures: fc.integer({ min: 1, max: 20 }) }, [
      'type',
      'toolName',
      'failures',
    ]),
    rec(
      {
        type: fc.constant('plan.updated'),
        items: fc.uniqueArray(
          rec(
            {
              id: fc.string({ minLength: 1, maxLength: 8 }),
              text: text.filter((s) => s.length > 0),
              status: fc.constantFrom('pending' as const, 'in_progress' as const, 'completed' as const),
            },
            ['text', 'status'],
          ),
          { minLength: 1, maxLength: 5, selector: (item: { id?: string }) => item.id ?? Symbol('no id') },
        ),
      },
      ['type', 'items'],
    ),
    fc.record({
      type: fc.constant('stall.detected' as const),
      kind: stallKind,
      evidence: fc.record({
        toolCallIds: fc.array(text, { maxLength: 6 }),
        subject: text,
        repeats: fc.integer({ min: 1, max: 100 }),
      }),
      since: count,
    }),
    fc.record({ type: fc.constant('stall.cleared' as const), kind: stallKind, since: count }),
  );
  const event: fc.Arbitrary<ProgressEvent> = fc
    .tuple(body, fc.string({ minLength: 1, maxLength: 12 }), fc.integer({ min: 1, max: 1e9 }), fc.integer({ min: 0, max: 4e12 }))
    .map(([b, runId, seq, ts]) => ({ ...b, runId, seq, ts }));
  return { report, body, event };
}

export {
  HOSTILE_PARSER_RUN_PARAMETERS,
  HOSTILE_PIECES,
  HOSTILE_RUN_PARAMETERS,
  HOSTILE_TEST_TIMEOUT,
  MACHINE_LOAD_FACTOR,
  controlTextArb,
  deepValueArb,
  fragmentTextArb,
  hostileObjectArb,
  hostileTextArb,
  hostileThunkArb,
  hostileValueArb,
  hugeStringArb,
  revokedProxy,
  throwingTraps,
  withHostileHoles,
} from './hostile-arbitraries.js';
export type { HostileTextOptions, HostileThunkOptions, HostileValueOptions, HugeStringOptions } from './hostile-arbitraries.js';
export { hostileParserInput } from './hostile-parser-input.js';
export { secretArb } from './secret-arbitraries.js';
export { callSevenMethods } from './seven-methods.js';
export type { HostileParserInput, HostileParserInputOptions } from './hostile-parser-input.js';
export { createRecordingReporter } from './recording-reporter.js';
export { createRecordingClock } from './recording-clock.js';
export { errorOptionsSnapshot, errorSnapshot } from './error-forms.js';
export type { ErrorSnapshot, HeadwayErrorClass } from './error-forms.js';
