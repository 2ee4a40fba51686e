// One line per performance target, so the whole bench suite reads at a glance: `verdict: met`
// or `verdict: missed`, the measured value and the target. A missed target sets a non-zero exit
// code; `pnpm bench` (run-all.ts) collects every verdict through HEADWAY_BENCH_VERDICTS and
// prints them together at the end.
import { appendFileSync } from 'node:fs';

/** One target and what was measured against it. */
export interface Verdict {
  /** What is measured, e.g. `ai-sdk: CLI + JSON reporters per step vs plain generateText`. */
  target: string;
  measured: number;
  /** `<=`: the measured value must not exceed the bound; `>=`: it must reach it. */
  op: '<=' | '>=';
  bound: number;
  /** Unit after the numbers (`×` for ratios). */
  unit: string;
  met: boolean;
}

/** The verdict line: `verdict: met   ai-sdk …: 1.21× (target ≤ 1.3×)`. */
export function formatVerdict(v: Verdict): string {
  const sign = v.op === '<=' ? '≤' : '≥';
  const value = Number.isFinite(v.measured) ? v.measured.toFixed(2) : String(v.measured);
  return `verdict: ${v.met ? 'met   ' : 'missed'} ${v.target}: ${value}${v.unit} (target ${sign} ${String(v.bound)}${v.unit})`;
}

/**
 * Judges one target, prints its verdict line, and on a miss sets `process.exitCode = 1`.
 * NaN never meets a target.
 */
export function verdict(target: string, measured: number, op: '<=' | '>=', bound: number, unit = '×'): boolean {
  const met = op === '<=' ? measured <= bound : measured >= bound;
  const v: Verdict = { target, measured, op, bound, unit, met };
  console.log(formatVerdict(v));
  if (!met) process.exitCode = 1;
  const file = process.env.HEADWAY_BENCH_VERDICTS;
  if (file !== undefined && file !== '') appendFileSync(file, `${JSON.stringify(v)}\n`);
  return met;
}
