import type { LimitKind, TerminalEvent } from './events.js';
import type { StopReason } from './progress-report.js';

/**
 * The one vocabulary for how a run ended, used by events, stores, the CLI, AG-UI and OTel alike:
 * `completed`; `limit` (stopped at a limit, see {@link RunEnd.limit}); `stalled` (wound down
 * because it was repeating itself); `cancelled`; `failed`; `interrupted` (crashed or lost its
 * worker mid-run, resumable from its checkpoint).
 */
export type RunEndState = 'completed' | 'limit' | 'stalled' | 'cancelled' | 'failed' | 'interrupted';

/** Every {@link RunEndState}, in a stable order. */
export const RUN_END_STATES: readonly RunEndState[] = ['completed', 'limit', 'stalled', 'cancelled', 'failed', 'interrupted'];

/** How one run ended: its state word and, for `limit`, which limit. */
export interface RunEnd {
  state: RunEndState;
  /** With `state: 'limit'`: the limit reached, when known. */
  limit?: LimitKind;
}

const LIMIT_OF_REASON: Readonly<Partial<Record<StopReason, LimitKind>>> = {
  'max-iterations': 'iterations',
  'time-budget': 'time',
  'negotiated-timeout': 'time',
  'cost-budget': 'cost',
};

/**
 * The run end a {@link StopReason} (a progress report's `reason`, `run.finished`'s `stopReason`)
 * stands for: a limit, `stalled`, `cancelled` or `failed`.
 */
export function runEndOfStopReason(reason: StopReason): RunEnd {
  const limit = LIMIT_OF_REASON[reason];
  if (limit !== undefined) return { state: 'limit', limit };
  if (reason === 'stalled') return { state: 'stalled' };
  if (reason === 'cancelled') return { state: 'cancelled' };
  return { state: 'failed' };
}

/**
 * How a run ended, read from its terminal event. A `run.finished` with `outcome: 'limit'` and no
 * `stopReason` (written before the field existed) is a limit of unknown kind.
 *
 * @example
 * runEndOf({ type: 'run.finished', outcome: 'limit', stopReason: 'max-iterations' }); // { state: 'limit', limit: 'iterations' }
 */
export function runEndOf(event: Pick<TerminalEvent, 'type'> & { outcome?: 'completed' | 'limit'; stopReason?: StopReason }): RunEnd {
  if (event.type === 'run.error') return { state: 'failed' };
  if (event.type === 'run.cancelled') return { state: 'cancelled' };
  if (event.outcome !== 'limit') return { state: 'completed' };
  return event.stopReason === undefined ? { state: 'limit' } : runEndOfStopReason(event.stopReason);
}

const LIMIT_LABELS: Readonly<Record<LimitKind, string>> = {
  iterations: 'stopped at its iteration limit',
  time: 'stopped at its time limit',
  cost: 'stopped at its cost limit',
};

/**
 * The words a person reads for a run's end, the same in every part: `completed`,
 * `stopped at its iteration limit`, `stalled`, `cancelled`, `failed`, `interrupted (resumable)`.
 */
export function describeRunEnd(end: RunEnd): string {
  switch (end.state) {
    case 'limit':
      return end.limit === undefined ? 'stopped at a limit' : LIMIT_LABELS[end.limit];
    case 'interrupted':
      return 'interrupted (resumable)';
    default:
      return end.state;
  }
}

/** The short form of a run's end for tables and attributes: the state word, with the limit for `limit` (`limit:iterations`). */
export function runEndWord(end: RunEnd): string {
  return end.state === 'limit' && end.limit !== undefined ? `limit:${end.limit}` : end.state;
}

/** Reads back a {@link runEndWord} (`completed`, `limit:iterations`, `interrupted`, …); `undefined` for anything else. */
export function parseRunEndWord(word: string): RunEnd | undefined {
  const [state, limit, ...rest] = word.split(':');
  if (rest.length > 0 || !(RUN_END_STATES as readonly string[]).includes(state ?? '')) return undefined;
  if (limit === undefined) return { state: state as RunEndState };
  if (state !== 'limit' || !['iterations', 'time', 'cost'].includes(limit)) return undefined;
  return { state: 'limit', limit: limit as LimitKind };
}
