import { formatDuration } from '@headway/protocol/internal';
import { terminalText } from './terminal-text.js';

/** `5s`, `3m 20s`, `2h 05m`, `4d 1h`: an age for a table, in whole seconds; under a day as headway writes every duration. */
export function formatAge(ms: number): string {
  const s = Math.max(0, Number.isFinite(ms) ? Math.floor(ms / 1000) : 0);
  const h = Math.floor(s / 3600);
  if (h >= 24) return `${Math.floor(h / 24)}d ${h % 24}h`;
  return s < 10 ? `${s}s` : formatDuration(s * 1000);
}

/** `$0.0123`. */
export function formatUsd(usd: number): string {
  return `$${usd.toFixed(4)}`;
}

/**
 * What was spent, saying when calls of a model with no price are not in it, as the dashboard says
 * it: `$0.0100 (excludes 2 unpriced calls)`.
 */
export function formatSpent(usd: number, unpricedCalls: number): string {
  if (unpricedCalls <= 0) return formatUsd(usd);
  return `${formatUsd(usd)} (excludes ${String(unpricedCalls)} unpriced call${unpricedCalls === 1 ? '' : 's'})`;
}

/** Rows as aligned columns, the first row the header; every cell made safe to print ({@link terminalText}). */
export function table(input: readonly (readonly string[])[]): string {
  const rows = input.map((row) => row.map(terminalText));
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows.map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join('  ')).join('\n');
}
