import type { ProgressSlice } from '@headway/runtime';

/** One progress notification of an MCP server, mapped into the caller's bar. */
export interface NestedProgress {
  /** Server and tool the progress came from. */
  server: string;
  tool: string;
  runId: string;
  toolCallId: string;
  /**
   * Where the parent's bar stands now, inside the call's slice; absent when the server sent no
   * `total` (an activity without a known end: show the message, don't move the bar).
   */
  percent?: number;
  /** The server's message, bounded and stripped of control characters. */
  message?: string;
  /** The raw values the server sent. */
  progress: number;
  total?: number;
}

/** The server's `progress / total` as 0–100 of the call's own work; undefined without a usable total. */
export function localPercent(progress: number, total: number | undefined): number | undefined {
  if (total === undefined || !Number.isFinite(total) || total <= 0 || !Number.isFinite(progress)) return undefined;
  return 100 * Math.min(1, Math.max(0, progress / total));
}

/** Clamps a slice into 0–100 with `lo <= hi`; a slice that is not numbers becomes 0–100. */
function normalizeSlice(slice: ProgressSlice): ProgressSlice {
  const lo = Number.isFinite(slice.lo) ? Math.min(100, Math.max(0, slice.lo)) : 0;
  const hi = Number.isFinite(slice.hi) ? Math.min(100, Math.max(lo, slice.hi)) : 100;
  return { lo, hi };
}

/**
 * Maps one call's progress notifications into its slice of the parent's bar:
 * `lo + (hi - lo) * min(1, progress / total)`, never backwards. Without a usable `total` there
 * is no percent to give, so none is invented.
 */
export class SliceMapper {
  readonly #slice: ProgressSlice;
  #last: number;

  constructor(slice: ProgressSlice) {
    this.#slice = normalizeSlice(slice);
    this.#last = this.#slice.lo;
  }

  /** The percent for a notification, or undefined when it has no total. */
  map(progress: number, total: number | undefined): number | undefined {
    const own = localPercent(progress, total);
    if (own === undefined) return undefined;
    const { lo, hi } = this.#slice;
    // Clamped: dividing by 100 after multiplying by 100 can land a rounding error past hi.
    const percent = Math.min(hi, lo + ((hi - lo) * own) / 100);
    this.#last = Math.max(this.#last, percent);
    return this.#last;
  }
}
