import { parseProgressEvent, type Clock, type ProgressEvent, type ProgressEventBody } from '@headway/protocol';
import { errorMessage } from '@headway/protocol/internal';
import { CliError, EXIT } from '../cli-error.js';
import { RunProgress, TICK_MS } from '../run-progress.js';

/** Most estimator ticks between two events (ten minutes of a run's time, as `watch` would tick). */
const MAX_TICKS_PER_GAP = 600;
/** Most estimator ticks in one conversion: a stream whose times leap does not cost without bound. */
const MAX_TICKS = 200_000;

/** What {@link finishConvertedRun} needs to know of the stream. */
export interface ConvertedRunOptions {
  /** Spread the events over the run's own `durationMs` (a stream with an end time but none per line: Claude Code). */
  spread: boolean;
  /** The run's turn cap, when known. */
  maxTurns?: number | undefined;
}

/**
 * A converted run as `headway convert` writes it:
 *
 * 1. when the stream told how long the run took but not when each line happened (Claude Code's
 *    `result.duration_ms`), the events, spaced in stream order, are spread over that time;
 * 2. the `progress` events `watch` would have shown are added, made by the same estimator code
 *    ({@link RunProgress}) on the run's own clock, ticking every second of it between events;
 * 3. `seq` is numbered again from 1;
 * 4. every event is checked against the protocol's schema.
 *
 * @throws {CliError} `CLI_CORRUPT_FILE` (exit 2) naming the event and the problem, when the input
 * gave an event the protocol rejects (a converter's bug: every converter is fuzzed against this).
 */
export function finishConvertedRun(input: readonly ProgressEvent[], options: ConvertedRunOptions): ProgressEvent[] {
  const events = options.spread ? spreadOverDuration(input) : input;
  const withProgress = events.some((e) => e.type === 'progress') ? [...events] : addProgress(events, options.maxTurns);
  return withProgress.map((event, i) => {
    const numbered = { ...event, seq: i + 1 };
    try {
      parseProgressEvent(numbered);
      return numbered;
    } catch (error) {
      throw new CliError(
        'CLI_CORRUPT_FILE',
        `event ${i + 1} (${event.type}) made from the input is not a valid progress event: ${errorMessage(error)}`,
        {
          cause: error,
          exitCode: EXIT.usage,
        },
      );
    }
  });
}

/** Events spaced in stream order, spread over the run's `run.finished.durationMs`; their durations scaled alike. */
function spreadOverDuration(events: readonly ProgressEvent[]): readonly ProgressEvent[] {
  const first = events[0];
  const last = events.at(-1);
  if (first === undefined || last?.type !== 'run.finished' || last.durationMs <= 0) return events;
  const span = last.ts - first.ts;
  if (span <= 0) return events;
  const factor = last.durationMs / span;
  const scale = (ms: number): number => Math.round(ms * factor);
  return events.map((event) => {
    const ts = first.ts + scale(event.ts - first.ts);
    if (event.type === 'step.finished' || event.type === 'tool.completed') return { ...event, ts, durationMs: scale(event.durationMs) };
    return { ...event, ts };
  });
}

/** The events with the estimator's `progress` among them, as `watch` shows them, on the run's clock. */
function addProgress(events: readonly ProgressEvent[], maxTurns: number | undefined): ProgressEvent[] {
  let now = events[0]?.ts ?? 0;
  const clock: Clock = {
    now: () => now,
    // The estimator reads this clock only; ticks are driven below, between events.
    setTimeout: () => undefined,
    clearTimeout: () => undefined,
  };
  const out: ProgressEvent[] = [];
  const first = events[0];
  const stamp = (body: ProgressEventBody): ProgressEvent => ({ ...body, runId: first?.runId ?? 'run', seq: 0, ts: now });
  const progress = new RunProgress({
    clock,
    maxTurns,
    emit: (body) => {
      out.push(stamp(body));
    },
  });
  let nextTick: number | undefined;
  let ticks = 0;
  for (const event of events) {
    if (nextTick !== undefined && ticks < MAX_TICKS) {
      // Only the last ten minutes of a long quiet gap are ticked through: the bar creeps as in `watch`.
      const from = Math.max(nextTick, event.ts - MAX_TICKS_PER_GAP * TICK_MS);
      let t = nextTick + Math.ceil((from - nextTick) / TICK_MS) * TICK_MS;
      // A tick due at the event's own time comes after it, as a timer does in the live view.
      for (; t < event.ts && ticks < MAX_TICKS; t += TICK_MS, ticks += 1) {
        now = t;
        progress.tick();
      }
      nextTick = t;
    }
    now = event.ts;
    const started = progress.isStarted();
    progress.handle(event, (e) => out.push(e));
    if (!started && progress.isStarted()) nextTick = event.ts + TICK_MS;
  }
  return out;
}
