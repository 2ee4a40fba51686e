// Hostile input for property tests of the estimator's parsers: huge strings, deep nesting,
// control characters, unclosed braces and fences, and objects that fight back when read.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';

/** Pieces that open, close or confuse the structures the parsers look for. */
const FRAGMENTS = [
  '{', '}', '[', ']', '"', '\\', ':', ',', '`', '```', '```json\n', '~~~', '\n', '\r\n', ' ', '\t', '#', '## ', '## 1. ', '- ', '* ', '**',
  '"_progress"', '_progress', '{"_progress":', '{"_progress": {"percent": 50}', '"percent":', '50', '-1e309', 'null', 'NaN',
  '&a ', '*a', '!!', '|', '>', 'call: workers/x', 'weight: 5', 'parallel:', '\u0000', '\u0007', '\u001b[2J', '\u2028', '\u2029', '\ufeff',
  '\ud800', '\udc00', '😀', 'ß', '\u202e',
];

/** A string built from hostile fragments and arbitrary text, short enough to run thousands. */
export const hostileFragmentString: fc.Arbitrary<string> = fc
  .array(fc.oneof(fc.constantFrom(...FRAGMENTS), fc.string({ unit: 'binary', maxLength: 8 })), { maxLength: 60 })
  .map((parts) => parts.join(''));

/** One fragment repeated to a large size: unclosed braces, long runs of spaces, deep nesting. */
const hugeRepeatedString: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom(...FRAGMENTS, ' ', 'a', '1', '{"a":', '[[', '"a', '{ "'), fc.integer({ min: 1_000, max: 60_000 }), hostileFragmentString)
  .map(([fragment, n, tail]) => fragment.repeat(Math.ceil(n / fragment.length)) + tail);

/** Opening and closing brackets nested thousands deep, with something in the middle. */
const deeplyNestedString: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom(['{"a":', '}'], ['[', ']'], ['{', '}'], ['{"_progress":', '}']), fc.integer({ min: 100, max: 20_000 }), fc.boolean(), hostileFragmentString)
  .map(([[open, close], n, closed, middle]) => open.repeat(n) + middle + (closed ? close.repeat(n) : ''));

/** Any of the hostile strings. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: hostileFragmentString },
  { weight: 1, arbitrary: hugeRepeatedString },
  { weight: 1, arbitrary: deeplyNestedString },
);

/** An object whose every read throws. */
function throwingGetters(): object {
  return new Proxy(
    {},
    {
      get() {
        throw new Error('getter says no');
      },
      has() {
        throw new Error('has says no');
      },
      ownKeys() {
        throw new Error('ownKeys says no');
      },
      getOwnPropertyDescriptor() {
        throw new Error('descriptor says no');
      },
      getPrototypeOf() {
        throw new Error('prototype says no');
      },
    },
  );
}

function revoked(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

/**
 * Values that are not what a parser expects: hostile objects, wrong types, huge arrays.
 * Generated as a function that makes the value, because fast-check itself must not read a
 * revoked proxy.
 */
export const hostileValue: fc.Arbitrary<() => unknown> = fc.oneof(
  fc.anything().map((v) => () => v),
  fc.constantFrom<unknown>(null, undefined, 42, Number.NaN, -1, 1e308, Symbol('s'), () => 'fn', 10n, [], '').map((v) => () => v),
  fc.constant(() => throwingGetters()),
  fc.constant(() => revoked()),
  fc.constant(() => ({ _progress: throwingGetters(), runs: revoked(), version: 1 })),
  fc.constant((): unknown[] => Array.from({ length: 200_000 }, () => ({ roundtrips: 1, durationMs: 1 }))),
  hostileString.map((v) => () => v),
);

/** A plausible shape with hostile values mixed in: sometimes replaced, sometimes with a revoked proxy inside. */
export function withHostileHoles(shape: fc.Arbitrary<unknown>): fc.Arbitrary<() => unknown> {
  return fc.oneof(
    shape.map((value) => () => value),
    hostileValue,
    shape.map((value) => () => (typeof value === 'object' && value !== null ? { ...value, extra: revoked() } : value)),
    shape.map((value) => () => (typeof value === 'object' && value !== null ? new Proxy(value, { get: () => { throw new Error('get says no'); } }) : value)),
  );
}

/**
 * Settings every hostile property runs with: a time limit per case and for the whole run, so a
 * hang fails. The whole-run limit is 60 s: these properties take 1–4 s on an idle machine and
 * took up to 11 s while the repository's whole suite ran on a 2-core machine at load 30, while
 * a super-linear parser on these inputs takes minutes. Tests that use it take
 * {@link HOSTILE_TEST_TIMEOUT}.
 */
export const HOSTILE_RUN: { numRuns: number; timeout: number; interruptAfterTimeLimit: number; markInterruptAsFailure: boolean } = {
  numRuns: 150,
  timeout: 2_000,
  interruptAfterTimeLimit: 60_000,
  markInterruptAsFailure: true,
};

/** Time limit a child process of {@link runIsolated} gets by default. */
const ISOLATED_TIMEOUT_MS = 120_000;

/** Vitest timeout for a test that runs {@link HOSTILE_RUN} or {@link runIsolated}: above both of their limits, so theirs is the failure reported. */
export const HOSTILE_TEST_TIMEOUT: number = ISOLATED_TIMEOUT_MS + 30_000;

/** What a child process printed and whether it ended in time. */
export interface IsolatedRun {
  status: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs TypeScript `code` in a fresh Node process (via tsx) with a time limit, for input that
 * may hang or abort the process: a hang or a crash then fails the test instead of taking the
 * test runner down. `code` may import the package's sources by their file URL (`srcUrl(…)`).
 *
 * The limit (120 s) covers starting Node and tsx, which takes about 1 s on an idle machine but
 * took 19 s while the whole suite ran on a 2-core machine at load 30 (the former 20 s limit
 * was then 0.2 s from failing). Inputs are sized so that a super-linear parser would still take
 * far longer than that.
 */
export function runIsolated(code: string, timeoutMs: number = ISOLATED_TIMEOUT_MS): IsolatedRun {
  const dir = mkdtempSync(join(tmpdir(), 'headway-isolated-'));
  const file = join(dir, 'case.ts');
  writeFileSync(file, code);
  const result = spawnSync(process.execPath, ['--import', 'tsx', file], { encoding: 'utf8', timeout: timeoutMs, cwd: import.meta.dirname });
  return { status: result.status, signal: result.signal, stdout: result.stdout, stderr: result.stderr };
}

/** The file URL of a source module of this package, for {@link runIsolated} code. */
export function srcUrl(file: string): string {
  return pathToFileURL(join(import.meta.dirname, file)).href;
}
