// fast-check generators of valid events and of secret-bearing text, shared by this package's tests.
// The event generator follows @headway/protocol's own (src/arbitraries.test-util.ts there).
import type { ProgressEvent, ProgressEventBody, ProgressReport } from '@headway/protocol';
import fc from 'fast-check';

const alnum = (min: number, max: number): fc.Arbitrary<string> =>
  fc.string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'.split('')), minLength: min, maxLength: max });
const upper = (n: number): fc.Arbitrary<string> =>
  fc.string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'.split('')), minLength: n, maxLength: n });

/** Secret-shaped values as they appear in tool args and results: `text` holds `secret`. */
export const secretArb: fc.Arbitrary<{ secret: string; text: string }> = fc.oneof(
  fc.tuple(fc.constantFrom('sk-', 'sk-proj-', 'sk-ant-api03-'), alnum(20, 60)).map(([p, s]) => ({ secret: s, text: `${p}${s}` })),
  fc.tuple(fc.constantFrom('AKIA', 'ASIA'), upper(16)).map(([p, s]) => ({ secret: `${p}${s}`, text: `${p}${s}` })),
  alnum(20, 60).map((s) => ({ secret: s, text: `Bearer ${s}` })),
  alnum(40, 40).map((s) => ({ secret: s, text: `ghp_${s}` })),
  alnum(20, 30).map((s) => ({ secret: s, text: `xoxb-${s}` })),
  alnum(35, 35).map((s) => ({ secret: `AIza${s}`, text: `AIza${s}` })),
  alnum(12, 30).map((s) => ({ secret: s, text: `password=${s}` })),
  alnum(12, 30).map((s) => ({ secret: s, text: `"api_key": "${s}"` })),
  alnum(12, 30).map((s) => ({ secret: s, text: `postgres://admin:${s}@db.internal:5432/app` })),
  alnum(40, 80).map((s) => ({ secret: s, text: `-----BEGIN RSA PRIVATE KEY-----\n${s}\n-----END RSA PRIVATE KEY-----` })),
  fc.tuple(alnum(12, 20), alnum(12, 20), alnum(12, 20)).map(([a, b, c]) => ({ secret: `${b}.${c}`, text: `eyJ${a}.eyJ${b}.${c}` })),
);

/**
 * Text of every kind: any unicode (lone surrogates, control characters, quotes,
 * newlines), fragments the secret detectors look for, and whole secrets.
 */
export const textArb: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 40, unit: 'binary' }),
  fc.string({ maxLength: 40 }),
  fc
    .array(
      fc.oneof(
        fc.string({ maxLength: 6 }),
        fc.constantFrom('\n', '"', '\\', '\u2028', '\ud800', 'key', 'Token ', 'sk-', '://', 'eyJ', 'AKIA', 'pwd=', 'secret:', 'ghp_', 'xox', '-----BEGIN '),
        secretArb.map((s) => s.text),
      ),
      { maxLength: 6 },
    )
    .map((parts) => parts.join('')),
);

const ms = fc.integer({ min: 0, max: 10_000_000 });
const count = fc.nat({ max: 10_000 });
const limit = fc.constantFrom('iterations' as const, 'time' as const, 'cost' as const);

function rec<T>(shape: { [K in keyof T]: fc.Arbitrary<T[K]> }, requiredKeys: (keyof T)[]): fc.Arbitrary<T> {
  return fc.record(shape, { requiredKeys });
}

function eventArbitraries(text: fc.Arbitrary<string>, json: fc.Arbitrary<unknown>): fc.Arbitrary<ProgressEvent> {
  const report: fc.Arbitrary<ProgressReport> = fc.record({
    task: text,
    reason: fc.constantFrom('max-iterations', 'time-budget', 'negotiated-timeout', 'cost-budget', 'cancelled', 'error'),
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
  const body: fc.Arbitrary<ProgressEventBody> = fc.oneof(
    rec({ type: fc.constant('run.started'), agentName: text, task: text }, ['type', 'agentName']),
    rec({ type: fc.constant('step.started'), step: text, description: text }, ['type', 'step']),
    rec({ type: fc.constant('step.finished'), step: text, durationMs: ms }, ['type', 'step', 'durationMs']),
    rec({ type: fc.constant('thinking'), content: text }, ['type', 'content']),
    rec({ type: fc.constant('tool.executing'), toolName: text, toolCallId: text, args: json }, ['type', 'toolName']),
    rec({ type: fc.constant('tool.completed'), toolName: text, toolCallId: text, durationMs: ms, ok: fc.boolean(), preview: text }, [
      'type',
      'toolName',
      'durationMs',
      'ok',
    ]),
    rec({ type: fc.constant('text.delta'), text }, ['type', 'text']),
    rec({ type: fc.constant('progress'), percent: fc.double({ min: 0, max: 100, noNaN: true }), message: text, etaMs: ms }, ['type', 'percent']),
    rec({ type: fc.constant('intermediate.result'), content: text }, ['type', 'content']),
    rec(
      {
        type: fc.constant('run.finished'),
        durationMs: ms,
        tokenCount: count,
        outcome: fc.constantFrom('completed' as const, 'limit' as const),
        summary: text,
      },
      ['type', 'durationMs', 'outcome'],
    ),
    rec({ type: fc.constant('run.error'), error: text }, ['type', 'error']),
    rec({ type: fc.constant('run.cancelled'), reason: text }, ['type']),
    rec({ type: fc.constant('iteration'), index: count, max: fc.integer({ min: 1, max: 200 }) }, ['type', 'index', 'max']),
    rec({ type: fc.constant('limit.approaching'), limit, used: ms, max: ms }, ['type', 'limit', 'used', 'max']),
    rec({ type: fc.constant('limit.reached'), limit, used: ms, max: ms }, ['type', 'limit', 'used', 'max']),
    rec({ type: fc.constant('wind-down.started'), reason: text, bonusSteps: fc.integer({ min: 1, max: 20 }) }, ['type', 'reason', 'bonusSteps']),
    rec({ type: fc.constant('timeout.extended'), byMs: ms, totalBudgetMs: ms }, ['type', 'byMs', 'totalBudgetMs']),
    rec({ type: fc.constant('checkpoint.saved'), checkpointId: text.filter((s) => s.length > 0), iteration: count }, [
      'type',
      'checkpointId',
      'iteration',
    ]),
    rec({ type: fc.constant('report.generated'), report }, ['type', 'report']),
  );
  return fc
    .tuple(body, fc.string({ minLength: 1, maxLength: 12 }), fc.integer({ min: 1, max: 1e9 }), fc.integer({ min: 0, max: 4e12 }))
    .map(([b, runId, seq, ts]) => ({ ...b, runId, seq, ts }));
}

/** Valid events with ordinary text and JSON args. */
export const eventArb: fc.Arbitrary<ProgressEvent> = eventArbitraries(fc.string({ maxLength: 40 }), fc.jsonValue());

/** Valid events whose text and args may hold anything, secrets included. */
export const wildEventArb: fc.Arbitrary<ProgressEvent> = eventArbitraries(
  textArb,
  fc.oneof(
    fc.jsonValue(),
    fc.dictionary(fc.constantFrom('apiKey', 'password', 'query', 'token', 'headers', 'Authorization', 'url'), fc.oneof(textArb, fc.jsonValue())),
  ),
);
