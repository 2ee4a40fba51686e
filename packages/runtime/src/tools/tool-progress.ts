import { cleanMessage } from '@headway/protocol/internal';
import type { ProgressTracker } from '@headway/estimator';

/** A part of the run's 0–100 bar: `0 <= lo <= hi <= 100`. */
export interface ProgressSlice {
  readonly lo: number;
  readonly hi: number;
}

/** What a tool reports of its own work through `ctx.reportProgress`. */
export interface ToolProgressUpdate {
  /** How far the tool's own work is, 0–100 (clamped). Absent when the tool cannot tell: only the message changes. */
  percent?: number;
  /** Shown with the bar; control characters become spaces, at most 200 characters are kept. */
  message?: string;
}

/** One tool call's channel into the run's bar. */
export interface ToolProgress {
  readonly slice: ProgressSlice;
  report(update: ToolProgressUpdate): void;
  /** The call ended: later reports are ignored. */
  close(): void;
}

/** The bar stays below 100 until the run finishes. */
const CEILING = 99;

/** Reads an update that may fight back (a throwing getter, a revoked proxy): anything unreadable counts as absent. */
function readUpdate(update: unknown): { percent?: number; message?: string } {
  const read: { percent?: number; message?: string } = {};
  if (typeof update !== 'object' || update === null) return read;
  try {
    const { percent, message } = update as Record<string, unknown>;
    if (typeof percent === 'number' && Number.isFinite(percent)) read.percent = Math.min(100, Math.max(0, percent));
    const text = cleanMessage(message);
    if (text !== undefined) read.message = text;
  } catch {
    // An update that cannot be read reports nothing.
  }
  return read;
}

/** Where one call sits in the run: its round, the run's cap, and the calls of the round not yet run (this one included). */
export interface ToolProgressPlace {
  iteration: number;
  maxIterations: number;
  callsLeft: number;
}

/**
 * Opens a call's channel into the run's bar. The call's slice starts where the bar stands and
 * spans its even share of what the round is expected to fill: the rest of the bar divided by
 * the rounds left, divided by the round's calls not yet run. So a tool reporting 100% brings
 * the bar where the round's end would have brought it, and the bar never goes back.
 */
export function openToolProgress(tracker: ProgressTracker, place: ToolProgressPlace): ToolProgress {
  const lo = Math.min(CEILING, tracker.percent);
  const roundsLeft = Math.max(1, place.maxIterations - place.iteration);
  const hi = Math.min(CEILING, lo + (CEILING - lo) / roundsLeft / Math.max(1, place.callsLeft));
  const slice: ProgressSlice = Object.freeze({ lo, hi });
  let child: ProgressTracker | undefined;
  let open = true;
  return {
    slice,
    report(update) {
      if (!open) return;
      const { percent, message } = readUpdate(update);
      if (percent !== undefined) {
        child ??= tracker.child({ start: lo, end: hi }, { aiDriven: true });
        child.reportModelProgress(message === undefined ? { percent } : { percent, message });
      } else if (message !== undefined) {
        tracker.setMessage(message);
      }
    },
    close() {
      open = false;
    },
  };
}
