// The detector's state machine only: fingerprints are in fingerprint.ts and the text people read
// in stall-subject.ts.
import { MAX_STALL_EVIDENCE_IDS, type ProgressEventOf, type StallKind } from '@headway/protocol';
import { EstimatorError, shown } from '../estimator-error.js';
import { stallFingerprintKey } from './fingerprint.js';
import { stallSubject, textSubject } from './stall-subject.js';

/** `stall.detected` without the envelope the hub stamps. */
export type StallDetectedBody = Omit<ProgressEventOf<'stall.detected'>, 'runId' | 'seq' | 'ts'>;
/** `stall.cleared` without the envelope the hub stamps. */
export type StallClearedBody = Omit<ProgressEventOf<'stall.cleared'>, 'runId' | 'seq' | 'ts'>;
/** What the detector reports when a stall begins or ends. */
export type StallChange = StallDetectedBody | StallClearedBody;

/** The thresholds of a {@link StallDetector}; each defaults to {@link DEFAULT_STALL_THRESHOLDS}. */
export interface StallThresholds {
  /** The same call with the same result this many times in a row is `repeated-call`. */
  repeatedCall: number;
  /** The same call failing the same way this many times in a row is `repeated-failure`. */
  repeatedFailure: number;
  /** Two calls alternating with unchanged results for this many A-B cycles is `ping-pong`. */
  pingPongCycles: number;
  /** This many iterations in a row with no new tool result and no new plan item done is `no-progress`. */
  noProgressIterations: number;
  /** The model writing the same text this many turns in a row is `repeated-text`. */
  repeatedText: number;
}

/**
 * The default thresholds, chosen on the recorded runs in bench/stall (see its table): none of the
 * runs that finished successfully is flagged at these values, and a call repeated with the same
 * result is caught at its fifth copy (public agents use 3 to 5).
 */
export const DEFAULT_STALL_THRESHOLDS: Readonly<StallThresholds> = Object.freeze({
  repeatedCall: 5,
  repeatedFailure: 4,
  pingPongCycles: 4,
  noProgressIterations: 15,
  repeatedText: 3,
});

/** Options of {@link createStallDetector}. */
export interface StallDetectorOptions extends Partial<StallThresholds> {
  /** Tools that wait on something (a job's status): calling them again and again is not a loop. */
  pollTools?: readonly string[];
}

/** One tool call as the detector sees it. */
export interface StallToolCall {
  /** Zero-based iteration the call was made in. */
  iteration: number;
  /** The call's id; the evidence of a stall lists these. */
  id?: string;
  name: string;
  args: unknown;
  result: unknown;
  ok: boolean;
}

/**
 * Watches a run's tool calls, texts and plan for repetition and reports when a stall begins and
 * ends. Each method returns the change it caused (at most one), or `undefined`. Hostile input
 * (huge, deeply nested, throwing getters) costs bounded time and never throws.
 */
export interface StallDetector {
  /** A tool call finished. */
  toolCall(call: StallToolCall): StallChange | undefined;
  /** The model wrote `text` in `iteration` (empty text is ignored). */
  text(iteration: number, text: string): StallChange | undefined;
  /** The plan now has `completed` items done. */
  plan(completed: number): void;
  /** `iteration` ended: checks for no progress. */
  iterationFinished(iteration: number): StallChange | undefined;
  /** The stall in progress, or `undefined`. */
  readonly active: StallDetectedBody | undefined;
}

interface Seen {
  id: string | undefined;
  iteration: number;
  name: string;
  args: unknown;
  /** The arguments' fingerprint key (`stallFingerprintKey`): with `name`, which call this was. */
  argsKey: string;
  /**
   * The call and its result in one string: name, arguments' fingerprint key, `ok`/`fail`,
   * result's fingerprint key, split by NULs. Fingerprint keys hold no NUL, so two keys are
   * equal exactly when all four parts are.
   */
  key: string;
  ok: boolean;
}

/** Whether two calls are the same call (name and arguments), whatever their results. */
function sameCall(a: Seen, b: Seen): boolean {
  return a.name === b.name && a.argsKey === b.argsKey;
}

/** Most recent calls kept: enough for the longest pattern any threshold can ask for. */
const HISTORY = 256;
/** Distinct results remembered for `no-progress`; past this, older ones are forgotten. */
const MAX_DISTINCT = 10_000;

function threshold(options: StallDetectorOptions, key: keyof StallThresholds, min: number): number {
  const value: unknown = options[key] ?? DEFAULT_STALL_THRESHOLDS[key];
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > 1000) {
    throw new EstimatorError(
      'ESTIMATOR_INVALID_ARGUMENT',
      `stall threshold ${key} must be an integer from ${min} to 1000, got ${shown(value)}`,
      {
        issues: [{ path: key, message: `expected an integer from ${min} to 1000` }],
      },
    );
  }
  return value;
}

function ids(calls: readonly Seen[]): string[] {
  const out: string[] = [];
  for (const c of calls) if (c.id !== undefined) out.push(c.id);
  return out.slice(-MAX_STALL_EVIDENCE_IDS);
}

/**
 * Creates a {@link StallDetector}.
 *
 * @throws {EstimatorError} `ESTIMATOR_INVALID_ARGUMENT` for a threshold that is not an integer in range.
 * @example
 * ```ts
 * const detector = createStallDetector({ pollTools: ['job_status'] });
 * for (let i = 0; i < 5; i++) {
 *   const change = detector.toolCall({ iteration: i, id: `c${i}`, name: 'ls', args: { path: 'src/work' }, result: 'a.ts', ok: true });
 *   if (change?.type === 'stall.detected') console.log(change.evidence.subject, change.evidence.repeats); // ls src/work 5
 * }
 * ```
 */
export function createStallDetector(options: StallDetectorOptions = {}): StallDetector {
  const limits: StallThresholds = {
    repeatedCall: threshold(options, 'repeatedCall', 2),
    repeatedFailure: threshold(options, 'repeatedFailure', 2),
    pingPongCycles: threshold(options, 'pingPongCycles', 2),
    noProgressIterations: threshold(options, 'noProgressIterations', 1),
    repeatedText: threshold(options, 'repeatedText', 2),
  };
  const polls = new Set(Array.isArray(options.pollTools) ? options.pollTools.filter((t) => typeof t === 'string') : []);
  const history: Seen[] = [];
  const distinct = new Set<string>();
  let active: StallDetectedBody | undefined;
  /** The call keys the active call stall is made of. */
  let activeKeys = new Set<string>();
  let progressed = false;
  let quietIterations = 0;
  let quietSince = 0;
  let planDone = 0;
  let lastText: { key: string; text: string; count: number; since: number } | undefined;

  const detect = (body: StallDetectedBody): StallChange | undefined => {
    if (active !== undefined) return undefined;
    active = body;
    return body;
  };
  const clear = (kinds: readonly StallKind[]): StallChange | undefined => {
    if (active === undefined || !kinds.includes(active.kind)) return undefined;
    const cleared: StallClearedBody = { type: 'stall.cleared', kind: active.kind, since: active.since };
    active = undefined;
    return cleared;
  };

  // The patterns are found as the index where they start, so that a call that continues or
  // breaks nothing copies no part of the history; the calls are sliced out only for a stall's evidence.

  /** Where the run of identical calls (same call, same result) ending at the newest one starts (`history.length` when empty). */
  const sameStreakStart = (): number => {
    const last = history[history.length - 1];
    if (last === undefined) return history.length;
    let i = history.length - 1;
    while (i > 0) {
      const prev = history[i - 1];
      if (prev?.key !== last.key) break;
      i -= 1;
    }
    return i;
  };

  /** Where the alternating run A-B-A-B… (A ≠ B, each with one result) ending at the newest call starts (`history.length` when there is none). */
  const pingPongStart = (): number => {
    const n = history.length;
    const a = history[n - 1];
    const b = history[n - 2];
    if (a === undefined || b === undefined || sameCall(a, b)) return n;
    let i = n - 2;
    while (i > 0) {
      // Within bounds both exist; each call must equal the one two places later (call and result).
      if (history[i - 1]?.key !== history[i + 1]?.key) break;
      i -= 1;
    }
    return i;
  };

  const callChange = (): StallChange | undefined => {
    const streakStart = sameStreakStart();
    const last = history[history.length - 1];
    const first = history[streakStart];
    if (
      last !== undefined &&
      first !== undefined &&
      history.length - streakStart >= (last.ok ? limits.repeatedCall : limits.repeatedFailure)
    ) {
      const streak = history.slice(streakStart);
      activeKeys = new Set([last.key]);
      return detect({
        type: 'stall.detected',
        kind: last.ok ? 'repeated-call' : 'repeated-failure',
        evidence: { toolCallIds: ids(streak), subject: stallSubject(last.name, last.args), repeats: streak.length },
        since: first.iteration,
      });
    }
    const ppStart = pingPongStart();
    const ppLength = history.length - ppStart;
    const a = history[history.length - 2];
    const b = history[history.length - 1];
    const start = history[ppStart];
    if (ppLength >= limits.pingPongCycles * 2 && a !== undefined && b !== undefined && start !== undefined) {
      const pp = history.slice(ppStart);
      activeKeys = new Set([a.key, b.key]);
      return detect({
        type: 'stall.detected',
        kind: 'ping-pong',
        evidence: {
          toolCallIds: ids(pp),
          subject: `${stallSubject(a.name, a.args)} ↔ ${stallSubject(b.name, b.args)}`,
          repeats: Math.floor(ppLength / 2),
        },
        since: start.iteration,
      });
    }
    return undefined;
  };

  return {
    get active() {
      return active;
    },
    toolCall(call) {
      const name = typeof call.name === 'string' ? call.name : '';
      if (polls.has(name)) return undefined;
      // Each field is read in the order, and as often, as it always was: `call` may come from foreign code.
      const id = typeof call.id === 'string' ? call.id : undefined;
      const iteration = Number.isInteger(call.iteration) ? call.iteration : 0;
      const args = call.args;
      const argsKey = stallFingerprintKey(call.args);
      const outcome = call.ok ? 'ok' : 'fail';
      const key = `${name}\u0000${argsKey}\u0000${outcome}\u0000${stallFingerprintKey(call.result)}`;
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-conversion -- `ok` comes from foreign code in bridges
      const seen: Seen = { id, iteration, name, args, argsKey, key, ok: Boolean(call.ok) };
      history.push(seen);
      if (history.length > HISTORY) history.splice(0, history.length - HISTORY);
      if (!distinct.has(key)) {
        progressed = true;
        if (distinct.size >= MAX_DISTINCT) distinct.clear();
        distinct.add(key);
      }
      // A call that breaks the pattern in progress ends the stall; one that repeats it changes nothing.
      if (active !== undefined && active.kind !== 'no-progress' && active.kind !== 'repeated-text') {
        const goesOn =
          activeKeys.has(key) &&
          (active.kind === 'ping-pong' ? history.length - pingPongStart() >= 3 : history[history.length - 2]?.key === key);
        return goesOn ? undefined : (clear([active.kind]) ?? callChange());
      }
      return callChange();
    },
    text(iteration, text) {
      if (typeof text !== 'string') return undefined;
      // Compared with the previous text only, so the normalised text itself is the key (its first 4 KiB, and the length past that).
      const head = text.slice(0, 4096).replace(/\s+/g, ' ').trim().toLowerCase();
      if (head === '') return undefined;
      const key = text.length > 4096 ? `${head}…${text.length}` : head;
      if (lastText?.key === key) lastText.count += 1;
      else {
        const cleared = clear(['repeated-text']);
        lastText = { key, text, count: 1, since: iteration };
        if (cleared !== undefined) return cleared;
      }
      if (lastText.count >= limits.repeatedText && active?.kind !== 'repeated-text') {
        return detect({
          type: 'stall.detected',
          kind: 'repeated-text',
          evidence: { toolCallIds: [], subject: textSubject(lastText.text), repeats: lastText.count },
          since: lastText.since,
        });
      }
      return undefined;
    },
    plan(completed) {
      if (typeof completed === 'number' && completed > planDone) {
        planDone = completed;
        progressed = true;
      }
    },
    iterationFinished(iteration) {
      if (progressed) {
        progressed = false;
        quietIterations = 0;
        return clear(['no-progress']);
      }
      if (quietIterations === 0) quietSince = iteration;
      quietIterations += 1;
      if (quietIterations >= limits.noProgressIterations && active === undefined) {
        const recent = history.filter((c) => c.iteration >= quietSince);
        return detect({
          type: 'stall.detected',
          kind: 'no-progress',
          evidence: {
            toolCallIds: ids(recent),
            subject: `no new result in ${quietIterations} iterations`,
            repeats: quietIterations,
          },
          since: quietSince,
        });
      }
      return undefined;
    },
  };
}
