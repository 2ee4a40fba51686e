// Hostile generators for property tests of anything that receives untrusted data (parsers,
// redactors, sinks, transports). Part of the `@headway/protocol/testing` entry.
import fc from 'fast-check';

/**
 * Short pieces that known super-linear patterns trip over (URL schemes, JWT and key prefixes,
 * unclosed quotes and braces, secret names, PEM headers, markdown markers), plus control
 * characters and lone surrogates. Repeated, they make the worst inputs of about n characters.
 */
export const HOSTILE_PIECES: readonly string[] = [
  'a',
  ' ',
  '\t',
  '\n',
  '\r\n',
  '\u0000',
  '\u001b[2J',
  '\u0007',
  '\u2028',
  '\ud800',
  '\udc00',
  '😀',
  '"',
  "'",
  '\\',
  '{',
  '}',
  '[',
  ']',
  '{"_progress": {',
  ':',
  '=',
  '://',
  'a:',
  'http://[',
  'eyJ-',
  'eyJa.',
  'sk-',
  'key ',
  'password="',
  'DB_PASSWORD',
  'token :',
  'Bearer ',
  '-----BEGIN RSA PRIVATE KEY-----\n',
  '# a ',
  '**Stats:** 1',
  '- ___none ',
  '%',
  '%zz',
];

/** Options of {@link hugeStringArb}. */
export interface HugeStringOptions {
  /** Shortest string (default 0). */
  minLength?: number;
  /** Longest string (default 100 000 characters). */
  maxLength?: number;
  /** Pieces the string is made of (default {@link HOSTILE_PIECES}). */
  pieces?: readonly string[];
}

/**
 * Long strings made of one or two hostile pieces repeated (`eyJ-eyJ-…`, `password="password="…`,
 * a run of letters), cut to a length between `minLength` and `maxLength`. Cheap to generate at
 * any size, unlike `fc.string` with a large `maxLength`.
 *
 * @example
 * ```ts
 * fc.assert(fc.property(hugeStringArb({ maxLength: 200_000 }), (s) => { redactString(s); }));
 * ```
 */
export function hugeStringArb(options: HugeStringOptions = {}): fc.Arbitrary<string> {
  const minLength = options.minLength ?? 0;
  const maxLength = options.maxLength ?? 100_000;
  const piece = fc.constantFrom(...(options.pieces ?? HOSTILE_PIECES));
  return fc.tuple(piece, piece, fc.boolean(), fc.integer({ min: minLength, max: maxLength })).map(([a, b, both, length]) => {
    const unit = both ? a + b : a;
    return unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
  });
}

/**
 * Text as a run might send it: control characters (ESC, BEL, NUL, CR), C1 controls, Unicode
 * line separators, lone surrogates, wide and astral characters, and hostile pieces.
 */
export function controlTextArb(maxLength = 64): fc.Arbitrary<string> {
  return fc
    .array(
      // Code units drawn directly: fast-check's `unit: 'binary'` builds a million-entry table on
      // first use, seconds of setup on a loaded machine.
      fc.oneof(
        fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
        fc.integer({ min: 0, max: 0x9f }).map((c) => String.fromCharCode(c)),
        fc.constantFrom(...HOSTILE_PIECES),
      ),
      { maxLength },
    )
    .map((parts) => parts.join(''));
}

/**
 * Values nested `depth` levels deep (alternating arrays and objects), up to `maxDepth`
 * (default 5 000): deep enough to overflow a recursive walker's stack.
 */
export function deepValueArb(maxDepth = 5000): fc.Arbitrary<unknown> {
  return fc.tuple(fc.integer({ min: 1, max: maxDepth }), fc.boolean(), fc.string({ maxLength: 8 })).map(([depth, arraysFirst, leaf]) => {
    let value: unknown = leaf;
    for (let i = 0; i < depth; i++) value = (i % 2 === 0) === arraysFirst ? [value] : { a: value };
    return value;
  });
}

function throwingGetter(): object {
  const value = {};
  Object.defineProperty(value, 'secret', {
    enumerable: true,
    get() {
      throw new Error('getter throws');
    },
  });
  return value;
}

/** A revoked proxy: every operation on it throws `TypeError`. */
export function revokedProxy(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

/** A proxy whose every trap (get, has, ownKeys, getOwnPropertyDescriptor, getPrototypeOf) throws. */
export function throwingTraps(): object {
  const boom = (): never => {
    throw new Error('trap throws');
  };
  return new Proxy({}, { get: boom, has: boom, ownKeys: boom, getOwnPropertyDescriptor: boom, getPrototypeOf: boom });
}

function cyclic(): object {
  const value: Record<string, unknown> = { name: 'cycle' };
  value.self = value;
  value.list = [value];
  return value;
}

/**
 * Objects that run hostile code when read: throwing getters, a revoked proxy, proxies whose
 * every trap throws, a `toJSON`/`toString`/`valueOf` that throws, a thenable whose `then`
 * throws, a function whose `toString` throws, cycles, a null prototype, bigints and symbols.
 *
 * The proxies come inside a plain array or object (`[proxy]`, `{ value: proxy }`): fast-check
 * itself reads every value it generates, which a revoked proxy does not allow. Test a bare
 * proxy with an explicit case.
 */
export function hostileObjectArb(): fc.Arbitrary<unknown> {
  return fc
    .constantFrom<(() => unknown)[]>(
      throwingGetter,
      () => [revokedProxy()],
      () => ({ value: revokedProxy() }),
      () => [throwingTraps()],
      () => ({ value: throwingTraps(), args: { nested: revokedProxy() } }),
      cyclic,
      () => ({
        toJSON: () => {
          throw new Error('toJSON throws');
        },
      }),
      () => ({
        toJSON: () => undefined,
        toString: () => {
          throw new Error('toString throws');
        },
      }),
      () => ({
        valueOf: () => {
          throw new Error('valueOf throws');
        },
        [Symbol.toPrimitive]: () => {
          throw new Error('toPrimitive throws');
        },
      }),
      () => ({
        then: () => {
          throw new Error('then throws');
        },
      }),
      () =>
        Object.assign(() => undefined, {
          toString: () => {
            throw new Error('toString throws');
          },
        }),
      () => Object.assign(Object.create(null) as object, { a: 1 }),
      () => ({ big: 10n ** 30n, sym: Symbol('s'), [Symbol('key')]: 1 }),
      () => Object.assign(new Error('message'), { cause: revokedProxy() }),
      () => {
        const error = new Error('x');
        Object.defineProperty(error, 'message', {
          get: () => {
            throw new Error('message getter throws');
          },
        });
        return error;
      },
    )
    .map((make) => make());
}

/** Options of {@link hostileValueArb}. */
export interface HostileValueOptions {
  /** Longest huge string (default 100 000 characters). */
  maxStringLength?: number;
  /** Deepest nesting (default 5 000). */
  maxDepth?: number;
}

/**
 * Any value an attacker could hand over: `fc.anything()`, huge strings, control text, deep
 * nesting and hostile objects, alone or inside an ordinary object or array. For fuzzing every
 * receiver of untrusted data with a per-case time limit (see {@link HOSTILE_RUN_PARAMETERS}).
 *
 * @example
 * ```ts
 * fc.assert(fc.property(hostileValueArb(), (value) => { reporter.handle(value as ProgressEvent); }), HOSTILE_RUN_PARAMETERS);
 * ```
 */
export function hostileValueArb(options: HostileValueOptions = {}): fc.Arbitrary<unknown> {
  const leaf = fc.oneof(
    fc.anything(),
    hugeStringArb({ maxLength: options.maxStringLength ?? 100_000 }),
    controlTextArb(),
    deepValueArb(options.maxDepth ?? 5000),
    hostileObjectArb(),
  );
  return fc.oneof(
    { weight: 3, arbitrary: leaf },
    {
      weight: 1,
      arbitrary: fc.dictionary(
        fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('type', 'runId', 'args', 'report', 'password', 'toJSON', '__proto__')),
        leaf,
        { maxKeys: 4 },
      ),
    },
    { weight: 1, arbitrary: fc.array(leaf, { maxLength: 4 }) },
  );
}

/**
 * How many times slower than an idle machine this one runs now, as far as the time limits of
 * hostile fuzzing are concerned: the run queue per core (the larger of the 1- and 5-minute load
 * averages over the cores), at least 1 and at most 8; 1 where there is no `node:os` (a browser).
 * Read once, when this module loads (each test file, in vitest). The limits below are multiplied
 * by it, so a busy machine does not trip them while a hang still fails, later.
 */
export const MACHINE_LOAD_FACTOR: number = machineLoadFactor();

function machineLoadFactor(): number {
  const host = globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } };
  const os = host.process?.getBuiltinModule?.('node:os') as { loadavg: () => number[]; availableParallelism: () => number } | undefined;
  return os === undefined ? 1 : loadFactor(os.loadavg(), os.availableParallelism());
}

/**
 * The slowdown {@link MACHINE_LOAD_FACTOR} reads from `loadAverages` (`os.loadavg()`: 1, 5 and
 * 15 minutes) on `cores` cores: the larger of the first two per core, within 1–8.
 */
export function loadFactor(loadAverages: readonly number[], cores: number): number {
  const [oneMinute = 0, fiveMinutes = 0] = loadAverages;
  const perCore = Math.max(oneMinute, fiveMinutes) / Math.max(1, cores);
  return Number.isFinite(perCore) ? Math.min(8, Math.max(1, perCore)) : 1;
}

const scaled = (ms: number): number => Math.round(ms * MACHINE_LOAD_FACTOR);

/**
 * fast-check parameters for hostile fuzzing: a time budget for the whole property that counts
 * as a failure when exceeded (`interruptAfterTimeLimit` + `markInterruptAsFailure`), and a
 * per-case `timeout` for async properties, so a hang fails the test instead of stalling CI.
 * The budget (30 s for 100 runs on an idle machine, times {@link MACHINE_LOAD_FACTOR}) is
 * generous because shared CI machines are slow; a super-linear receiver on these inputs takes
 * minutes. Pair it with a vitest test timeout a little above `interruptAfterTimeLimit`.
 */
export const HOSTILE_RUN_PARAMETERS: {
  numRuns: number;
  timeout: number;
  interruptAfterTimeLimit: number;
  markInterruptAsFailure: boolean;
} = {
  numRuns: 100,
  timeout: scaled(2000),
  interruptAfterTimeLimit: scaled(30_000),
  markInterruptAsFailure: true,
};

/**
 * {@link HOSTILE_RUN_PARAMETERS} for parsers of large hostile text: 150 cases and a 60 s limit
 * for the whole run (times {@link MACHINE_LOAD_FACTOR}), so a hang fails. Such properties take 1–4 s on an idle machine and up to
 * 11 s on a 2-core machine at load 30, while a super-linear parser on these inputs takes minutes.
 */
export const HOSTILE_PARSER_RUN_PARAMETERS: typeof HOSTILE_RUN_PARAMETERS = {
  ...HOSTILE_RUN_PARAMETERS,
  numRuns: 150,
  interruptAfterTimeLimit: scaled(60_000),
};

/**
 * Vitest timeout for a test that runs {@link HOSTILE_PARSER_RUN_PARAMETERS} or a hostile case in a
 * child process (given 120 s): above both of their limits, so theirs is the failure reported
 * (150 s on an idle machine, times {@link MACHINE_LOAD_FACTOR}, as theirs are).
 */
export const HOSTILE_TEST_TIMEOUT: number = scaled(150_000);

/** Options of {@link hostileTextArb}. */
export interface HostileTextOptions {
  /** Pieces that open, close or confuse the structures the receiver looks for (its own markers). */
  pieces: readonly string[];
  /** Opening and closing pairs nested thousands deep (default `{`/`}` and `[`/`]`). */
  nesting?: readonly (readonly [open: string, close: string])[];
  /** Further units repeated to a large size, besides `pieces`. */
  repeat?: readonly string[];
}

/**
 * Short text made of `pieces` and arbitrary code units (control characters, lone surrogates),
 * short enough to run thousands of cases.
 */
export function fragmentTextArb(pieces: readonly string[]): fc.Arbitrary<string> {
  const unit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));
  return fc
    .array(
      fc.oneof(
        fc.constantFrom(...pieces),
        fc.array(unit, { maxLength: 8 }).map((units) => units.join('')),
      ),
      { maxLength: 60 },
    )
    .map((parts) => parts.join(''));
}

/**
 * Hostile text for a parser: mostly {@link fragmentTextArb} of the parser's own markers, then
 * one marker repeated to tens of thousands of characters (unclosed structures, long runs), and
 * opening/closing pairs nested thousands deep, sometimes left open.
 *
 * @example
 * ```ts
 * const text = hostileTextArb({ pieces: ['{', '}', '"_progress"', '```json\n'] });
 * fc.assert(fc.property(text, (s) => { parseModelProgress(s); }), HOSTILE_RUN_PARAMETERS);
 * ```
 */
export function hostileTextArb(options: HostileTextOptions): fc.Arbitrary<string> {
  const fragment = fragmentTextArb(options.pieces);
  const huge = fc
    .tuple(fc.constantFrom(...options.pieces, ...(options.repeat ?? [' ', 'a', '1'])), fc.integer({ min: 1_000, max: 60_000 }), fragment)
    .map(([piece, n, tail]) => piece.repeat(Math.ceil(n / Math.max(1, piece.length))) + tail);
  const pairs = options.nesting ?? [
    ['{', '}'],
    ['[', ']'],
  ];
  const nested = fc
    .tuple(fc.constantFrom(...pairs), fc.integer({ min: 100, max: 20_000 }), fc.boolean(), fragment)
    .map(([[open, close], n, closed, middle]) => open.repeat(n) + middle + (closed ? close.repeat(n) : ''));
  return fc.oneof({ weight: 6, arbitrary: fragment }, { weight: 1, arbitrary: huge }, { weight: 1, arbitrary: nested });
}

/** Options of {@link hostileThunkArb}. */
export interface HostileThunkOptions {
  /** Hostile strings among the values (default none). */
  text?: fc.Arbitrary<string>;
  /** Makers of the receiver's own plausible-but-hostile shapes (e.g. a huge array of its records). */
  shapes?: readonly (() => unknown)[];
}

/**
 * Values that are not what a parser expects — wrong types, `NaN`, symbols, bigints, an object
 * whose every read throws, a revoked proxy, and the receiver's own `shapes` — each as a
 * function that makes it, because fast-check itself must not read a revoked proxy.
 */
export function hostileThunkArb(options: HostileThunkOptions = {}): fc.Arbitrary<() => unknown> {
  const makers: fc.Arbitrary<() => unknown>[] = [
    fc.anything().map((v) => () => v),
    fc.constantFrom<unknown>(null, undefined, 42, Number.NaN, -1, 1e308, Symbol('s'), () => 'fn', 10n, [], '').map((v) => () => v),
    fc.constant(() => throwingTraps()),
    fc.constant(() => revokedProxy()),
  ];
  for (const shape of options.shapes ?? []) makers.push(fc.constant(shape));
  if (options.text !== undefined) makers.push(options.text.map((v) => () => v));
  return fc.oneof(...makers);
}

/**
 * A plausible `shape` with hostile holes: sometimes replaced by a `hostile` value, sometimes
 * with a revoked proxy inside, sometimes behind a proxy whose reads throw. As thunks, like
 * {@link hostileThunkArb}.
 */
export function withHostileHoles(
  shape: fc.Arbitrary<unknown>,
  hostile: fc.Arbitrary<() => unknown> = hostileThunkArb(),
): fc.Arbitrary<() => unknown> {
  const isObject = (value: unknown): value is object => typeof value === 'object' && value !== null;
  return fc.oneof(
    shape.map((value) => () => value),
    hostile,
    shape.map((value) => () => (isObject(value) ? { ...value, extra: revokedProxy() } : value)),
    shape.map(
      (value) => () =>
        isObject(value)
          ? new Proxy(value, {
              get: () => {
                throw new Error('get says no');
              },
            })
          : value,
    ),
  );
}
