import { STOP_REASONS, type ProgressReport, type ProgressReportStats, type StopReason } from '@headway/protocol';
import { STOP_REASON_TEXT } from './report-sections.js';
import { formatCount, formatDuration } from './text.js';

/** Exact text of a number (`-0` kept), so the parser reads back the very same value. */
function exact(n: number): string {
  return Object.is(n, -0) ? '-0' : String(n);
}

/**
 * `**Stats:** 30 iterations · 87 tool calls · 252000 ms elapsed (4m 12s) · cost $0.42 ·
 * stopped: max-iterations (the iteration limit was reached) · written by: model`.
 * Numbers are written unrounded; the parenthesised parts are for people and are ignored
 * when the line is read back.
 */
export function renderStatsLine(report: Pick<ProgressReport, 'stats' | 'reason' | 'generatedBy'>): string {
  const { stats } = report;
  const parts = [
    `${exact(stats.iterations)} iteration${stats.iterations === 1 ? '' : 's'}`,
    `${exact(stats.toolCalls)} tool call${stats.toolCalls === 1 ? '' : 's'}`,
    `${exact(stats.elapsedMs)} ms elapsed (${formatDuration(stats.elapsedMs)})`,
  ];
  if (stats.costUsd !== undefined) parts.push(`cost $${exact(stats.costUsd)}`);
  parts.push(`stopped: ${report.reason} (${STOP_REASON_TEXT[report.reason]})`, `written by: ${report.generatedBy}`);
  return `**Stats:** ${parts.join(' · ')}`;
}

/** A summary of the stats for prose: `30 iterations, 87 tool calls, 4m 12s, $0.42`. */
export function describeStats(stats: ProgressReportStats): string {
  const plural = (n: number, word: string): string => `${formatCount(n)} ${word}${n === 1 ? '' : 's'}`;
  const parts = [plural(stats.iterations, 'iteration'), plural(stats.toolCalls, 'tool call'), formatDuration(stats.elapsedMs)];
  if (stats.costUsd !== undefined) parts.push(`$${stats.costUsd.toFixed(stats.costUsd < 1 ? 4 : 2)}`);
  return parts.join(', ');
}

/** What a stats line said; fields it did not mention are absent. */
export interface ParsedStats {
  iterations?: number;
  toolCalls?: number;
  elapsedMs?: number;
  costUsd?: number;
  reason?: StopReason;
  generatedBy?: ProgressReport['generatedBy'];
  /** Problems found, for the parser's warnings. */
  problems: string[];
}

const NUM = String.raw`-?\d[\d,]*(?:\.\d+)?(?:e[+-]?\d+)?`;

const ITERATIONS = [new RegExp(`(${NUM})\\s+iterations?\\b`, 'i'), new RegExp(`iterations?\\s*[:=]?\\s*(${NUM})`, 'i')];
const TOOL_CALLS = [new RegExp(`(${NUM})\\s+tool[ -]?calls?\\b`, 'i'), new RegExp(`tool[ -]?calls?\\s*[:=]?\\s*(${NUM})`, 'i')];
const EXACT_MS = new RegExp(`(${NUM})\\s*ms elapsed`, 'i');
const DOLLARS = new RegExp(`\\$\\s*(${NUM})`);
const COST = new RegExp(`cost\\s*[:=]?\\s*(${NUM})`, 'i');

function num(text: string): number {
  return Number(text.replace(/,/g, ''));
}

function count(text: string, ...patterns: RegExp[]): number | undefined {
  for (const re of patterns) {
    const m = re.exec(text);
    if (m?.[1] !== undefined) {
      const n = num(m[1]);
      if (Number.isInteger(n) && n >= 0) return n;
    }
  }
  return undefined;
}

/** `4m 12s`, `1h 2m`, `12.5 s`, `850ms`, `2 minutes` → milliseconds. */
function duration(text: string): number | undefined {
  const re = /(\d+(?:\.\d+)?)\s*(ms|milliseconds?|s|sec(?:onds?)?|m|min(?:utes?)?|h|hours?)\b/gi;
  let total = 0;
  let found = false;
  for (const m of text.matchAll(re)) {
    const value = Number(m[1]);
    const unit = (m[2] ?? '').toLowerCase();
    const scale = unit.startsWith('ms') || unit.startsWith('milli') ? 1 : unit.startsWith('h') ? 3_600_000 : unit.startsWith('m') ? 60_000 : 1000;
    total += value * scale;
    found = true;
  }
  return found ? total : undefined;
}

/** Reads a stats line written by {@link renderStatsLine}, or by a model in its own words. */
export function parseStatsLine(text: string): ParsedStats {
  const out: ParsedStats = { problems: [] };
  const iterations = count(text, ...ITERATIONS);
  if (iterations !== undefined) out.iterations = iterations;
  const toolCalls = count(text, ...TOOL_CALLS);
  if (toolCalls !== undefined) out.toolCalls = toolCalls;

  const exactMs = EXACT_MS.exec(text);
  if (exactMs?.[1] !== undefined) {
    out.elapsedMs = num(exactMs[1]);
  } else {
    const m = /(?:elapsed|duration|time(?: spent| used)?)\s*[:=]?\s*([^·|,;]+)/i.exec(text) ?? /([^·|,;]+?)\s+elapsed/i.exec(text);
    const ms = m?.[1] === undefined ? undefined : duration(m[1]);
    if (ms !== undefined) out.elapsedMs = ms;
  }

  const cost = DOLLARS.exec(text) ?? COST.exec(text);
  if (cost?.[1] !== undefined) {
    const n = num(cost[1]);
    if (n >= 0) out.costUsd = n;
    else out.problems.push(`negative cost "${cost[1]}" ignored`);
  }

  const stopped = /stopped\s*[:=]?\s*([a-z-]+)/i.exec(text);
  if (stopped?.[1] !== undefined) {
    const reason = stopped[1].toLowerCase();
    if ((STOP_REASONS as readonly string[]).includes(reason)) out.reason = reason as StopReason;
    else out.problems.push(`unknown stop reason "${stopped[1]}" ignored`);
  }
  const by = /written by\s*[:=]?\s*(model|fallback)\b/i.exec(text);
  if (by?.[1] !== undefined) out.generatedBy = by[1].toLowerCase() as ProgressReport['generatedBy'];
  return out;
}
