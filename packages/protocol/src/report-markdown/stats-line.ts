import { STOP_REASONS, type ProgressReport, type ProgressReportStats, type StopReason } from '../progress-report.js';
import { STOP_REASON_TEXT } from './report-sections.js';
import { formatCount, formatDuration, isSpace } from './text.js';

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

// Every pattern here is either anchored at a keyword found by a literal search or read with a
// sticky regexp at one position, and a number is at most MAX_NUMBER characters: a stats line
// of any length is read in linear time (a pattern searched from every position, such as
// `(\d+)\s+iterations`, is quadratic on a long run of digits).
const MAX_NUMBER = 40;
/** A number as written: `1,034`, `-0`, `0.42`, `1e6`. */
const NUMBER = /-?\d[\d,]*(?:\.\d+)?(?:e[+-]?\d+)?/iy;
const WHOLE_NUMBER = /^-?\d[\d,]*(?:\.\d+)?(?:e[+-]?\d+)?$/i;
const NUMBER_CHAR = /[\d,.e+-]/i;
const ITERATION_WORD = /iterations?\b/gi;
const TOOL_CALL_WORD = /tool[ -]?calls?\b/gi;
const ELAPSED_MS_WORD = /ms elapsed/gi;
const DOLLAR = /\$/g;
const COST_WORD = /cost/gi;
const ELAPSED_WORD = /elapsed|duration|time(?: spent| used)?/gi;
const STOPPED_WORD = /stopped/gi;
const REASON = /[a-z-]+/iy;
const WRITTEN_BY_WORD = /written by/gi;
const AUTHOR = /(?:model|fallback)\b/iy;
const DURATION_NUMBER = /\d+(?:\.\d+)?/g;
const DURATION_UNIT = /(?:ms|milliseconds?|sec(?:onds?)?|min(?:utes?)?|hours?|[hms])\b/iy;

/** Index after `\s*[:=]?\s*` from `i`. */
function skipSeparator(text: string, i: number): number {
  let at = i;
  while (isSpace(text[at])) at++;
  if (text[at] === ':' || text[at] === '=') at++;
  while (isSpace(text[at])) at++;
  return at;
}

/** The match of a sticky `pattern` at `at`, if any. */
function stickyAt(pattern: RegExp, text: string, at: number): string | undefined {
  pattern.lastIndex = at;
  return pattern.exec(text)?.[0];
}

/** The number written at `at`, if there is one of at most MAX_NUMBER characters. */
function numberAt(text: string, at: number): string | undefined {
  const found = stickyAt(NUMBER, text, at);
  return found !== undefined && found.length <= MAX_NUMBER ? found : undefined;
}

/**
 * The number written right before whitespace that ends at `end` (`30 iterations`): the
 * leftmost start whose text up to the whitespace is a whole number, as a search of
 * `(NUMBER)\s+word` would find it (`\s*` when `spaceOptional`).
 */
function numberBefore(text: string, end: number, spaceOptional = false): string | undefined {
  let at = end;
  while (at > 0 && isSpace(text[at - 1])) at--;
  if (at === end && !spaceOptional) return undefined;
  let from = at;
  while (from > 0 && at - from <= MAX_NUMBER && NUMBER_CHAR.test(text[from - 1] ?? '')) from--;
  // Still inside a run of number characters: a number longer than MAX_NUMBER is no count.
  if (from > 0 && NUMBER_CHAR.test(text[from - 1] ?? '')) return undefined;
  for (let start = from; start < at; start++) {
    const candidate = text.slice(start, at);
    if (WHOLE_NUMBER.test(candidate)) return candidate;
  }
  return undefined;
}

/** The first `keyword` (a global regexp) whose `read` finds something. */
function firstAfterKeyword<T>(text: string, keyword: RegExp, read: (index: number, match: string) => T | undefined): T | undefined {
  for (const m of text.matchAll(keyword)) {
    const value = read(m.index, m[0]);
    if (value !== undefined) return value;
  }
  return undefined;
}

function num(text: string): number {
  return Number(text.replace(/,/g, ''));
}

/** A count in `30 iterations` or `iterations: 30` form (the first form wins, as written first in the line). */
function count(text: string, keyword: RegExp): number | undefined {
  const readers = [
    (index: number): string | undefined => numberBefore(text, index),
    (index: number, match: string): string | undefined => numberAt(text, skipSeparator(text, index + match.length)),
  ];
  for (const read of readers) {
    const written = firstAfterKeyword(text, keyword, read);
    if (written !== undefined) {
      const n = num(written);
      if (Number.isInteger(n) && n >= 0) return n;
    }
  }
  return undefined;
}

/** `4m 12s`, `1h 2m`, `12.5 s`, `850ms`, `2 minutes` → milliseconds. */
function duration(text: string): number | undefined {
  let total = 0;
  let found = false;
  for (const m of text.matchAll(DURATION_NUMBER)) {
    if (m[0].length > MAX_NUMBER) continue;
    let at = m.index + m[0].length;
    while (isSpace(text[at])) at++;
    const unit = stickyAt(DURATION_UNIT, text, at)?.toLowerCase();
    if (unit === undefined) continue;
    const scale =
      unit.startsWith('ms') || unit.startsWith('milli') ? 1 : unit.startsWith('h') ? 3_600_000 : unit.startsWith('m') ? 60_000 : 1000;
    total += Number(m[0]) * scale;
    found = true;
  }
  return found ? total : undefined;
}

/** The part of a `·`, `|`, `,` or `;` separated line from `from` to the next separator. */
function partFrom(text: string, from: number): string {
  let end = from;
  while (end < text.length && !'·|,;'.includes(text[end] ?? '')) end++;
  return text.slice(from, end);
}

/** The elapsed time in `elapsed: 4m 12s` or `4m 12s elapsed` form. */
function elapsed(text: string): number | undefined {
  const after = firstAfterKeyword(text, ELAPSED_WORD, (index, match) => {
    const part = partFrom(text, skipSeparator(text, index + match.length));
    return part === '' ? undefined : part;
  });
  if (after !== undefined) return duration(after);
  // `4m 12s elapsed`: the part that ends in whitespace before the first such `elapsed`.
  let partStart = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] ?? '';
    if ('·|,;'.includes(ch)) partStart = i + 1;
    else if (isSpace(ch) && text.startsWith('elapsed', i + 1)) {
      let wsStart = i;
      while (wsStart > partStart && isSpace(text[wsStart - 1])) wsStart--;
      if (wsStart > partStart) return duration(text.slice(partStart, wsStart));
    }
  }
  return undefined;
}

/** Reads a stats line written by {@link renderStatsLine}, or by a model in its own words. Linear in the text. */
export function parseStatsLine(text: string): ParsedStats {
  const out: ParsedStats = { problems: [] };
  const iterations = count(text, ITERATION_WORD);
  if (iterations !== undefined) out.iterations = iterations;
  const toolCalls = count(text, TOOL_CALL_WORD);
  if (toolCalls !== undefined) out.toolCalls = toolCalls;

  // `252000 ms elapsed` or `252000ms elapsed`.
  const exactMs = firstAfterKeyword(text, ELAPSED_MS_WORD, (index) => numberBefore(text, index, true));
  if (exactMs !== undefined) {
    out.elapsedMs = num(exactMs);
  } else {
    const ms = elapsed(text);
    if (ms !== undefined) out.elapsedMs = ms;
  }

  const cost =
    firstAfterKeyword(text, DOLLAR, (index) => numberAt(text, skipSpaces(text, index + 1))) ??
    firstAfterKeyword(text, COST_WORD, (index, match) => numberAt(text, skipSeparator(text, index + match.length)));
  if (cost !== undefined) {
    const n = num(cost);
    if (n >= 0) out.costUsd = n;
    else out.problems.push(`negative cost "${cost}" ignored`);
  }

  const stopped = firstAfterKeyword(text, STOPPED_WORD, (index, match) =>
    stickyAt(REASON, text, skipSeparator(text, index + match.length)),
  );
  if (stopped !== undefined) {
    const reason = stopped.toLowerCase();
    if ((STOP_REASONS as readonly string[]).includes(reason)) out.reason = reason as StopReason;
    else out.problems.push(`unknown stop reason "${stopped.slice(0, 40)}" ignored`);
  }
  const by = firstAfterKeyword(text, WRITTEN_BY_WORD, (index, match) => stickyAt(AUTHOR, text, skipSeparator(text, index + match.length)));
  if (by !== undefined) out.generatedBy = by.toLowerCase() as ProgressReport['generatedBy'];
  return out;
}

function skipSpaces(text: string, i: number): number {
  let at = i;
  while (isSpace(text[at])) at++;
  return at;
}
