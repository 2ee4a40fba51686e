import type { TaskHistory } from './task-history.js';

/**
 * Share of the prior kept uninformed when there is history. Evaluated leave-one-group-out
 * on recorded runs, history of other kinds of task is a weak guide; this keeps it from
 * overruling the cap-based prior.
 */
const UNINFORMED_SHARE = 0.5;
/** Share of the uninformed prior beyond the cap, for loops that do not enforce it strictly. */
const BEYOND_CAP_SHARE = 0.05;
/** How fast that share thins out past the cap (a Pareto tail). */
const BEYOND_CAP_ALPHA = 1.5;
/** Kernel width, in natural-log roundtrips, that smooths history into a prior. */
const HISTORY_BANDWIDTH = 0.45;
const GRID_LIMIT = 20_000;
/** The most recent runs kept from history; older ones add cost, not information. */
const HISTORY_LIMIT = 500;

/** The prior's tables: the mass of each total, and its suffix sums. Never written after they are built. */
interface PosteriorTables {
  readonly size: number;
  readonly mass: Float64Array;
  readonly tail: Float64Array;
  readonly tailOverN: Float64Array;
}

/** Caps whose history-free tables are kept; a process uses a handful. */
const SHARED_LIMIT = 64;
/**
 * Tables of the history-free prior, by cap: a pure function of the cap (never stale), and the
 * largest part of building a tracker (about 0.1 µs per entry, 16 entries per iteration of the cap).
 */
const shared = new Map<number | undefined, PosteriorTables>();

/**
 * A belief over how many roundtrips a run will take in total, conditioned on how many it
 * has already started. Without history the prior is log-uniform up to the cap (a run is
 * as likely to need 2–4 roundtrips as 10–20); history replaces most of it with a
 * smoothed histogram of earlier runs' counts.
 */
export class RoundtripPosterior {
  private readonly size: number;
  /** mass[n] = prior probability that the run takes exactly n roundtrips (index 0 unused). */
  private readonly mass: Float64Array;
  /** Suffix sums of mass and of mass / n, so conditioning on "at least r" is O(1). */
  private readonly tail: Float64Array;
  private readonly tailOverN: Float64Array;

  constructor(cap: number | undefined, history: TaskHistory | undefined) {
    const counts = (history?.runs.slice(-HISTORY_LIMIT) ?? []).map((r) => r.roundtrips).filter((n) => Number.isFinite(n) && n >= 1);
    const cap0 = cap !== undefined && Number.isFinite(cap) && cap >= 1 ? Math.floor(cap) : undefined;
    let tables = counts.length === 0 ? shared.get(cap0) : undefined;
    if (tables === undefined) {
      tables = buildTables(cap0, counts);
      if (counts.length === 0) {
        if (shared.size >= SHARED_LIMIT) shared.clear();
        shared.set(cap0, tables);
      }
    }
    this.size = tables.size;
    this.mass = tables.mass;
    this.tail = tables.tail;
    this.tailOverN = tables.tailOverN;
  }

  /**
   * Expected fraction done, E[position / N | N >= atLeast], where `position` (<= atLeast)
   * counts finished roundtrips plus the share of the current one.
   */
  fractionDone(position: number, atLeast: number): number {
    if (position <= 0) return 0;
    const r = Math.max(1, Math.ceil(atLeast));
    if (r > this.size) return Math.min(1, position / r) * 0.5;
    const tail = this.tail[r] ?? 0;
    if (tail <= 0) return Math.min(1, position / r) * 0.5;
    return Math.min(1, (position * (this.tailOverN[r] ?? 0)) / tail);
  }

  /**
   * The posterior quantile q of the total N given N >= atLeast (interpolated between
   * integers so small changes in belief move it smoothly).
   */
  quantile(q: number, atLeast: number): number {
    const r = Math.max(1, Math.ceil(atLeast));
    if (r > this.size) return 2 * r;
    const tail = this.tail[r] ?? 0;
    if (tail <= 0) return 2 * r;
    const goal = q * tail;
    // The mass from r through n is tail[r] - tail[n + 1], which never shrinks as n grows: the
    // first n where it reaches the goal is found by bisection, O(log n) per call (the estimator
    // asks on every update of a run).
    const reaches = (n: number): boolean => tail - (this.tail[n + 1] ?? 0) >= goal;
    if (!reaches(this.size)) return this.size;
    let lo = r;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (reaches(mid)) hi = mid;
      else lo = mid + 1;
    }
    const acc = tail - (this.tail[lo] ?? 0);
    const m = this.mass[lo] ?? 0;
    return lo - 1 + (m > 0 ? (goal - acc) / m : 1);
  }

  /** Roundtrips still to come after `position`: the posterior median of N - position. */
  remaining(position: number, atLeast: number): number {
    return Math.max(0.5, this.quantile(0.5, atLeast) - position);
  }
}

function normalise(values: Float64Array): void {
  let sum = 0;
  for (const v of values) sum += v;
  if (sum > 0) for (let i = 0; i < values.length; i++) values[i] = (values[i] ?? 0) / sum;
}

/** The prior over the total for a cap (`undefined`: none) and the roundtrip counts of earlier runs. */
function buildTables(cap0: number | undefined, counts: readonly number[]): PosteriorTables {
  const longest = Math.max(cap0 ?? 0, ...counts, 8);
  const size = Math.min(GRID_LIMIT, longest * 16);
  const mass = new Float64Array(size + 1);
  const uninformed = new Float64Array(size + 1);
  const scale = cap0 ?? Math.max(30, ...counts);
  // The same for every n past the cap: computed once, and multiplied in the same order as before.
  const beyondCap = BEYOND_CAP_SHARE / Math.log(scale + 1);
  for (let n = 1; n <= size; n++) {
    uninformed[n] = n <= scale ? 1 / n : beyondCap * (1 / n) * (scale / n) ** BEYOND_CAP_ALPHA;
  }
  normalise(uninformed);
  if (counts.length > 0) {
    const learned = new Float64Array(size + 1);
    const multiplicity = new Map<number, number>();
    for (const c of counts) multiplicity.set(c, (multiplicity.get(c) ?? 0) + 1);
    const kernels = [...multiplicity].map(([c, k]) => ({ log: Math.log(c), k }));
    for (let n = 1; n <= size; n++) {
      let density = 0;
      const logN = Math.log(n);
      for (const { log, k } of kernels) {
        const z = (logN - log) / HISTORY_BANDWIDTH;
        if (z > -8 && z < 8) density += k * Math.exp(-0.5 * z * z);
      }
      // The kernel lives in log space; per integer n it is divided by n.
      learned[n] = density / n;
    }
    if (cap0 !== undefined && cap0 < size) {
      // An enforced cap ends longer runs at the cap: fold most of their mass onto it.
      let beyond = 0;
      for (let n = cap0 + 1; n <= size; n++) beyond += learned[n] ?? 0;
      for (let n = cap0 + 1; n <= size; n++) learned[n] = (learned[n] ?? 0) * BEYOND_CAP_SHARE;
      learned[cap0] = (learned[cap0] ?? 0) + beyond * (1 - BEYOND_CAP_SHARE);
    }
    normalise(learned);
    for (let n = 1; n <= size; n++) mass[n] = (1 - UNINFORMED_SHARE) * (learned[n] ?? 0) + UNINFORMED_SHARE * (uninformed[n] ?? 0);
  } else {
    mass.set(uninformed);
  }
  normalise(mass);
  const tail = new Float64Array(size + 2);
  const tailOverN = new Float64Array(size + 2);
  for (let n = size; n >= 1; n--) {
    tail[n] = (tail[n + 1] ?? 0) + (mass[n] ?? 0);
    tailOverN[n] = (tailOverN[n + 1] ?? 0) + (mass[n] ?? 0) / n;
  }
  return { size, mass, tail, tailOverN };
}
