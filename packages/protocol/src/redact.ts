import { ProtocolError } from './protocol-error.js';
import { redactAssignments } from './redact-assignments.js';
import { isSecretKey } from './secret-names.js';

/** Options of {@link redact} and {@link createRedactor}. */
export interface RedactOptions {
  /**
   * Key paths whose values are replaced, pino-style: `detail.args.apiKey`,
   * `headers["x-api-key"]`, `*.password`, `items[0].token`; `*` matches any one key.
   */
  paths?: readonly string[];
  /** Replacement text (default `[REDACTED]`). */
  censor?: string;
  /**
   * Also replace values under keys that name a secret (`password`, `apiKey`, `token`,
   * `authorization`, `secret`, `privateKey`, `cookie`, …). Default true.
   */
  secretKeys?: boolean;
}

/** A compiled redaction function: returns a redacted deep copy of its input. */
export type Redactor = <T>(value: T) => T;

interface Detector {
  readonly pattern: RegExp;
  /** The replacement of one match; returning `match` keeps it. */
  readonly replace: (censor: string, match: string, ...groups: string[]) => string;
}

const whole = (censor: string): string => censor;

/**
 * Secret-shaped text found inside any string. Each is anchored so it does not fire in the
 * middle of an ordinary word (`task-…` is not an `sk-…` key), and each runs in linear time:
 * a match that has read a long run either succeeds and consumes it, or could only have
 * started where the run starts (the lookbehinds of the JWT and URL patterns), so no run is
 * rescanned from each of its positions (see redact.test.ts, and the growth
 * bench in bench/adversarial/cases/protocol.ts).
 *
 * "At least n" is written `X{n}X*`, never `X{n,}`: the same matches (redact.property.test.ts
 * checks them against the `{n,}` forms), but V8 runs a `X*` of one character class as a simple
 * greedy loop, and `X{n,}` not: over a 1 MB run of `eyJ-` the JWT pattern took 8 ms a call in
 * some processes and 20 ms in others (a backtracking stack growing by megabytes behaves so),
 * and takes 3 ms in every process written this way.
 */
/* eslint-disable regexp/optimal-quantifier-concatenation -- `X{n}X*` on purpose: V8 runs it as a simple greedy loop (see above). */
const DETECTORS: readonly Detector[] = [
  // Authorization header values.
  { pattern: /\b(Bearer|Basic|Token)\s+[\w\-.~+/]{8}[\w\-.~+/]*=*/gi, replace: (c, _m, scheme = '') => `${scheme} ${c}` },
  // OpenAI / Anthropic style keys: sk-…, sk-proj-…, sk-ant-api03-…
  { pattern: /(?<![A-Za-z\d])sk-[\w-]{16}[\w-]*/g, replace: whole },
  // AWS access key ids.
  { pattern: /(?<![A-Z\d])(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z\d]{16}(?![A-Z\d])/g, replace: whole },
  // GitHub tokens.
  { pattern: /(?<![A-Za-z\d])(?:gh[pousr]_[A-Za-z\d]{30}[A-Za-z\d]*|github_pat_\w{22}\w*)/g, replace: whole },
  // Slack tokens.
  { pattern: /(?<![A-Za-z\d])xox[abprs]-[A-Za-z\d-]{10}[A-Za-z\d-]*/g, replace: whole },
  // Google API keys.
  { pattern: /(?<![A-Za-z\d])AIza[\w-]{35}/g, replace: whole },
  // JSON Web Tokens.
  { pattern: /(?<![\w-])eyJ[\w-]{8}[\w-]*\.eyJ[\w-]{8}[\w-]*\.[\w-]{8}[\w-]*/g, replace: whole },
  // Credentials in URLs: scheme://user:password@host. The scheme starts where a run of scheme
  // characters starts, so a long run is walked once, not once per position.
  { pattern: /(?<![a-z\d+.-])([a-z][a-z\d+.-]*:\/\/[^\s:/@]+:)[^\s/@]+@/gi, replace: (c, _m, prefix = '') => `${prefix}${c}@` },
];
/* eslint-enable regexp/optimal-quantifier-concatenation */

/**
 * A cheap superset of the detectors above and of `redactAssignments`' secret names: each of
 * them needs one of these fragments (case folded), so text that matches none is returned
 * unchanged and need not be scanned at all. An alternation of literals: one linear pass.
 */
const FRAGMENTS =
  /-----begin|bearer|basic|token|sk-|akia|asia|agpa|aida|aroa|anpa|anva|aipa|gh[pousr]_|github_pat_|xox|aiza|eyj|:\/\/|passw|pwd|secret|key|credential/i;

/**
 * False only when `text` certainly holds nothing {@link redactString} would replace; a fast
 * check before the scan, for writers that handle many short strings.
 */
export function mayContainSecret(text: string): boolean {
  return FRAGMENTS.test(text);
}

/**
 * Replaces every secret-shaped substring of `text` with the censor: API keys and tokens of
 * known shapes, bearer credentials, private-key blocks, URL credentials, and the value of
 * every `NAME=value` / `NAME: value` whose name holds a secret (`DB_PASSWORD=…`,
 * `"openai_api_key": "…"`, `GITHUB_TOKEN: …`). Linear in the length of `text`.
 */
export function redactString(text: string, censor = '[REDACTED]'): string {
  if (!mayContainSecret(text)) return text;
  let out = redactPrivateKeys(text, censor);
  for (const { pattern, replace } of DETECTORS) {
    out = out.replace(pattern, (match: string, ...rest: unknown[]) =>
      replace(censor, match, ...rest.filter((r): r is string => typeof r === 'string')),
    );
  }
  return redactAssignments(out, censor);
}

const PEM_BEGIN = /-----BEGIN [A-Z\d ]*PRIVATE KEY-----/g;
const PEM_END = /-----END [A-Z\d ]*PRIVATE KEY-----/g;

/**
 * PEM private keys, terminated or cut off: from each BEGIN line to the nearest END line (or the
 * end of the text); the next search resumes after it. What
 * `/-----BEGIN [A-Z\d ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z\d ]*PRIVATE KEY-----|$)/g`
 * matches (redact.property.test.ts checks it), found with two searches instead: V8 runs the
 * lazy `[\s\S]*?` one backtracking step per character it passes, and the searches take about
 * two thirds of its time over 1 MB of BEGIN lines (640 µs vs 930 µs to 1 ms).
 */
function redactPrivateKeys(text: string, censor: string): string {
  PEM_BEGIN.lastIndex = 0;
  const pieces: string[] = [];
  let copied = 0;
  for (let begin = PEM_BEGIN.exec(text); begin !== null; begin = PEM_BEGIN.exec(text)) {
    PEM_END.lastIndex = PEM_BEGIN.lastIndex;
    const end = PEM_END.exec(text);
    pieces.push(text.slice(copied, begin.index), censor);
    copied = end === null ? text.length : PEM_END.lastIndex;
    if (end === null) break;
    PEM_BEGIN.lastIndex = copied;
  }
  if (pieces.length === 0) return text;
  pieces.push(text.slice(copied));
  return pieces.join('');
}

type Segment = string; // '*' is the wildcard

function parsePath(path: string): Segment[] {
  const segments: Segment[] = [];
  const re = /\s*(?:\.?([a-z_$*][\w$-]*)|\[\s*(\d+|\*|"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')\s*\])/iy;
  let index = 0;
  while (index < path.length) {
    re.lastIndex = index;
    const m = re.exec(path);
    if (m === null || (index === 0 && m[0].startsWith('.'))) {
      throw new ProtocolError('REDACT_INVALID_PATH', `redact: invalid path "${path}" at character ${index + 1}`);
    }
    const bare = m[1];
    const bracket = m[2];
    if (bare !== undefined) segments.push(bare);
    else if (bracket !== undefined)
      segments.push(/^["']/.test(bracket) ? (JSON.parse(`"${bracket.slice(1, -1).replace(/"/g, '\\"')}"`) as string) : bracket);
    index = re.lastIndex;
  }
  if (segments.length === 0) throw new ProtocolError('REDACT_INVALID_PATH', `redact: empty path "${path}"`);
  return segments;
}

/**
 * Compiles redaction options once into a function, for hot paths.
 *
 * @throws {ProtocolError} `REDACT_INVALID_PATH` when a path cannot be parsed.
 */
export function createRedactor(options: RedactOptions = {}): Redactor {
  const censor = options.censor ?? '[REDACTED]';
  const secretKeys = options.secretKeys ?? true;
  const paths = (options.paths ?? []).map(parsePath);

  function walk(value: unknown, partials: readonly Segment[][], seen: WeakSet<object>): unknown {
    if (typeof value === 'string') return redactString(value, censor);
    if (typeof value !== 'object' || value === null) return value;
    if (seen.has(value)) return '[Circular]';
    if (value instanceof Date) return new Date(value.getTime());
    if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return value;
    seen.add(value);
    try {
      if (Array.isArray(value)) return value.map((item, i) => child(String(i), item, partials, seen));
      if (value instanceof Map) {
        const out = new Map<unknown, unknown>();
        for (const [k, v] of value) out.set(k, typeof k === 'string' ? child(k, v, partials, seen) : walk(v, [], seen));
        return out;
      }
      if (value instanceof Set) return new Set([...value].map((v) => walk(v, [], seen)));
      const source: Record<string, unknown> =
        value instanceof Error ? { name: value.name, message: value.message } : (value as Record<string, unknown>);
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(source)) out[key] = child(key, source[key], partials, seen);
      return out;
    } finally {
      seen.delete(value);
    }
  }

  function child(key: string, value: unknown, partials: readonly Segment[][], seen: WeakSet<object>): unknown {
    if (secretKeys && value !== undefined && value !== null && isSecretKey(key)) return censor;
    const next: Segment[][] = [];
    for (const p of partials) {
      const head = p[0];
      if (head === '*' || head === key) {
        if (p.length === 1) return censor;
        next.push(p.slice(1));
      }
    }
    return walk(value, next, seen);
  }

  return <T>(value: T): T => {
    try {
      return walk(value, paths, new WeakSet()) as T;
    } catch {
      // A hostile object (throwing getter, revoked proxy) must not leak or crash a logger.
      return censor as T;
    }
  };
}

const cache = new Map<string, Redactor>();

/**
 * Returns a deep copy of `value` with secrets replaced by `[REDACTED]`: values at the
 * configured key paths, values under secret-named keys, and secret-shaped text (API keys
 * such as `sk-…`, `Bearer …` tokens, AWS access keys, private-key blocks, `password=`
 * pairs, GitHub/Slack/Google tokens, JWTs, URL credentials) inside any string.
 * Every headway package that writes or logs events uses this one function.
 *
 * @example
 * ```ts
 * redact({ args: { apiKey: 'abc', q: 'Bearer eyJhbGciOi...' } }, { paths: ['args.apiKey'] });
 * // { args: { apiKey: '[REDACTED]', q: 'Bearer [REDACTED]' } }
 * ```
 */
export function redact<T>(value: T, options: RedactOptions = {}): T {
  const key = JSON.stringify([options.paths ?? [], options.censor ?? null, options.secretKeys ?? true]);
  let redactor = cache.get(key);
  if (redactor === undefined) {
    redactor = createRedactor(options);
    if (cache.size > 100) cache.clear();
    cache.set(key, redactor);
  }
  return redactor(value);
}
