import type { ProgressReport, ProgressReportStats, StopReason } from '../progress-report.js';
import { LIST_KEYS, SECTION_TITLES, emptyLists, sectionOfLabel, type ReportListKey, type ReportSectionKey } from './report-sections.js';
import { parseStatsLine } from './stats-line.js';
import { cutText, isSpace } from './text.js';

/**
 * Values {@link parseProgressReport} uses for what the Markdown does not say — typically
 * what the agent loop knows for certain: the task it was given, why it stopped, its
 * counters, and who wrote the text (`'model'` unless told otherwise). Values in the
 * Markdown win over these.
 */
export interface ParseProgressReportDefaults {
  task?: string;
  reason?: StopReason;
  stats?: ProgressReportStats;
  generatedBy?: ProgressReport['generatedBy'];
}

/** The result of {@link parseProgressReport}. */
export interface ParsedProgressReport {
  report: ProgressReport;
  /** What was missing or odd (missing sections, prose read as items, an unreadable stats line); empty for a well-formed report. */
  warnings: string[];
}

type Target = ReportSectionKey | 'stats' | 'ignore';

interface Section {
  /** Items as their lines: the bullet's text, then its continuation lines. */
  items: string[][];
  /** Paragraphs of text that is not a list item. */
  paragraphs: string[][];
  /** Every trimmed non-blank line, as written (for the task). */
  lines: string[];
  occurrences: number;
}

// Lines are cut by hand rather than by one pattern each: a pattern such as
// `^#{1,6}\s+(.*?)(?:\s+#+)?\s*$` backtracks polynomially on a line full of spaces.
const LIST_MARKER = /[-*+•]|\d{1,3}[.)]/y;
const PLAIN_LABEL_TEXT = /^[A-Z][A-Z /&'-]{0,60}$/i;
const RULE = /^([-*_])(?:\s*\1){2,}$/;
const FENCE = /^(?:```|~~~)/;
// Matched against text whose whitespace runs are one space each (see isNone).
const NONE =
  /^[_*([]*\s?(?:none|n\/a|na|nothing(?: (?:yet|so far|to report))?|no (?:items?|findings|results|remaining work)|-|—)\s?[.!]?\s?[_*)\]]*$/i;
/**
 * Longest report text {@link parseProgressReport} reads: 1 MiB (1,048,576 characters). A
 * report is a few KB; the rest of a longer text is dropped with a warning.
 */
export const MAX_REPORT_LENGTH = 1_048_576;
/** Warnings {@link parseProgressReport} returns at most (50); the last then counts the rest. */
export const MAX_REPORT_WARNINGS = 50;

/** `## Title ##` → `Title`: 1–6 hashes, whitespace, the text without closing hashes. */
function readHeading(line: string): string | undefined {
  let hashes = 0;
  while (line[hashes] === '#') hashes++;
  if (hashes < 1 || hashes > 6 || !isSpace(line[hashes])) return undefined;
  const text = line.slice(hashes).trim();
  let end = text.length;
  while (end > 0 && text[end - 1] === '#') end--;
  // Closing hashes count only after whitespace (`C#` keeps its hash).
  return end < text.length && end > 0 && isSpace(text[end - 1]) ? text.slice(0, end).trimEnd() : text;
}

/** A list marker (`-`, `*`, `+`, `•`, `1.`, `2)`) at the start of `line`, or undefined. */
function listMarker(line: string): string | undefined {
  LIST_MARKER.lastIndex = 0;
  return LIST_MARKER.exec(line)?.[0];
}

/** `- text` → the text ('' for a lone marker); undefined when the line is not a list item. */
function readBullet(line: string): string | undefined {
  const marker = listMarker(line);
  if (marker === undefined) return undefined;
  if (marker.length === line.length) return '';
  if (!isSpace(line[marker.length])) return undefined;
  return line.slice(marker.length).trimStart();
}

/** `**Label** rest` or `- __Label:__ rest`: the marker (if any), the label and the rest. */
function readBoldLabel(line: string): { marker: string | undefined; label: string; rest: string } | undefined {
  let at = 0;
  let marker = listMarker(line);
  if (marker !== undefined && isSpace(line[marker.length])) {
    at = marker.length;
    while (isSpace(line[at])) at++;
  } else marker = undefined;
  const delimiter = line.slice(at, at + 2);
  if (delimiter !== '**' && delimiter !== '__') return undefined;
  const close = line.indexOf(delimiter, at + 3);
  if (close === -1) return undefined;
  return { marker, label: line.slice(at + 2, close), rest: line.slice(close + 2).trimStart() };
}

/** `Label: rest`, where the label is a short run of letters, spaces and `/&'-`. */
function readPlainLabel(line: string): { label: string; rest: string } | undefined {
  const colon = line.indexOf(':');
  if (colon <= 0) return undefined;
  const label = line.slice(0, colon).trimEnd();
  if (!PLAIN_LABEL_TEXT.test(label)) return undefined;
  return { label, rest: line.slice(colon + 1).trimStart() };
}

function indentOf(line: string): number {
  let n = 0;
  for (const ch of line) {
    if (ch === ' ') n += 1;
    else if (ch === '\t') n += 4;
    else break;
  }
  return n;
}

interface Label {
  target: Exclude<Target, 'ignore'> | 'title' | 'unknown';
  label: string;
  inline: string;
}

/** Reads a line as a section heading or label, if it is one. */
function labelOf(line: string): Label | undefined {
  const text = readHeading(line);
  if (text !== undefined) {
    const whole = sectionOfLabel(text);
    if (whole !== undefined) return { target: whole, label: text, inline: '' };
    const colon = text.indexOf(':');
    if (colon > 0) {
      const head = sectionOfLabel(text.slice(0, colon));
      if (head !== undefined) return { target: head, label: text.slice(0, colon), inline: text.slice(colon + 1).trim() };
    }
    return { target: 'unknown', label: text.replace(/[*_`]/g, '').trim(), inline: '' };
  }
  const bold = readBoldLabel(line);
  if (bold) {
    const { marker } = bold;
    const label = bold.label.trimEnd().endsWith(':') ? bold.label.trimEnd().slice(0, -1) : bold.label;
    const rest = bold.rest.startsWith(':') ? bold.rest.slice(1).trimStart() : bold.rest;
    const target = sectionOfLabel(label);
    // `- **Findings:** the token is …` inside a list is an item, `1. **Findings**` alone a heading.
    if (target !== undefined && (marker === undefined || rest === '')) return { target, label, inline: rest };
    return undefined;
  }
  if (readBullet(line) !== undefined) return undefined;
  const plain = readPlainLabel(line);
  if (plain) {
    const target = sectionOfLabel(plain.label);
    if (target !== undefined) return { target, label: plain.label, inline: plain.rest.trim() };
  }
  return undefined;
}

function decodeItem(lines: readonly string[]): string {
  const [first = ''] = lines;
  if (lines.length === 1 && first.startsWith('"') && first.endsWith('"')) {
    try {
      const value: unknown = JSON.parse(first);
      if (typeof value === 'string') return value;
    } catch {
      // Not a JSON string: a model's quoted phrase, kept as written.
    }
  }
  return lines.join('\n');
}

function isNone(text: string): boolean {
  // Only short lines can say "none"; collapsing whitespace first keeps the pattern linear.
  return text.length <= 64 && NONE.test(text.trim().replace(/\s+/g, ' '));
}

/**
 * Reads a progress report back from Markdown: the exact output of `renderProgressReport`,
 * or what a model wrote when asked for one. Tolerant of other heading levels, bold or
 * `Label:` labels instead of headings, numbered lists, `*`/`+` bullets, prose around the
 * lists, code fences and missing sections (left empty, with a warning). Never throws.
 *
 * `parseProgressReport(renderProgressReport(r)).report` deep-equals `r`.
 *
 * @param defaults task, reason, stats and author for a report that does not state them
 * (a model's report usually has no stats line); without them, missing values become
 * `''`, `'max-iterations'`, zeros and `'model'`, each with a warning.
 * @example
 * ```ts
 * const { report, warnings } = parseProgressReport(modelText, { task, reason: 'max-iterations', stats, generatedBy: 'model' });
 * if (warnings.length > 0) logger.warn(warnings.join('; '));
 * ```
 */
export function parseProgressReport(markdown: string, defaults: ParseProgressReportDefaults = {}): ParsedProgressReport {
  // Callers from plain JavaScript can pass anything.
  const given: unknown = markdown;
  const text = typeof given === 'string' ? given : '';
  const warnings = new BoundedWarnings();
  if (text.length > MAX_REPORT_LENGTH)
    warnings.push(`the text is ${text.length} characters; only the first ${MAX_REPORT_LENGTH} were read`);
  const { sections, statsText, sawStats } = scanReport(text.length > MAX_REPORT_LENGTH ? text.slice(0, MAX_REPORT_LENGTH) : text, warnings);
  const report = assemble(sections, warnings, defaults);
  applyStats(report, sawStats, statsText, warnings, defaults);
  return { report, warnings: warnings.result() };
}

/** Where warnings go while a report is read. */
interface WarningSink {
  /** A warning, or a function making it: only called when the warning is kept (a hostile text can raise one per line). */
  push(warning: string | (() => string)): unknown;
}

/** Keeps at most {@link MAX_REPORT_WARNINGS} warnings and counts the rest, so a hostile text cannot pile them up. */
class BoundedWarnings implements WarningSink {
  readonly #kept: string[] = [];
  #more = 0;

  push(warning: string | (() => string)): void {
    if (this.#kept.length < MAX_REPORT_WARNINGS) this.#kept.push(typeof warning === 'string' ? warning : warning());
    else this.#more++;
  }

  result(): string[] {
    return this.#more === 0 ? this.#kept : [...this.#kept, `and ${this.#more} more warning${this.#more === 1 ? '' : 's'}`];
  }
}

/** A label or value quoted in a warning, cut to 80 characters. */
function quoted(text: string): string {
  return cutText(text, 80);
}

/** What the line scanner found, before defaults and stats are applied. */
interface Scan {
  sections: Map<ReportSectionKey, Section>;
  statsText: string;
  sawStats: boolean;
}

/**
 * The task and the items of one list section exactly as {@link parseProgressReport} would
 * read them; the renderer uses it to check that readable Markdown reads back unchanged.
 */
export function readBack(markdown: string, key: ReportSectionKey): string | string[] {
  const { sections } = scanReport(markdown, IGNORE_WARNINGS);
  const section = sections.get(key);
  if (key === 'task') return section === undefined ? '' : taskOf(section);
  return readList(key, section, IGNORE_WARNINGS);
}

/** For read-backs, where warnings are not wanted. */
const IGNORE_WARNINGS: WarningSink = { push: () => undefined };

function scanReport(markdown: string, warnings: WarningSink): Scan {
  const sections = new Map<ReportSectionKey, Section>();
  const statsText: string[] = [];
  let sawStats = false;
  let target: Target | undefined;
  let section: Section | undefined;
  let item: string[] | undefined;
  let itemIndent = 0;
  let paragraph: string[] | undefined;

  const close = (): void => {
    item = undefined;
    paragraph = undefined;
  };
  const open = (key: Target): void => {
    close();
    target = key;
    if (key === 'stats') {
      sawStats = true;
      section = undefined;
      return;
    }
    if (key === 'ignore') {
      section = undefined;
      return;
    }
    section = sections.get(key);
    if (section === undefined) {
      section = { items: [], paragraphs: [], lines: [], occurrences: 0 };
      sections.set(key, section);
    }
    section.occurrences += 1;
    if (section.occurrences === 2) warnings.push(`section "${SECTION_TITLES[key]}" appears more than once; its items were merged`);
  };
  const addProse = (text: string): void => {
    if (section === undefined) return;
    section.lines.push(text);
    item = undefined;
    if (paragraph === undefined) {
      paragraph = [];
      section.paragraphs.push(paragraph);
    }
    paragraph.push(text);
  };

  // Lines are taken one at a time rather than split up front: a text of 100,000 short lines
  // would otherwise hold them all at once, and the collector's cost grows with that.
  const source = typeof markdown === 'string' ? markdown.replace(/\r\n?/g, '\n') : '';
  for (let start = 0; start <= source.length;) {
    let end = source.indexOf('\n', start);
    if (end === -1) end = source.length;
    const raw = source.slice(start, end);
    start = end + 1;
    const text = raw.trim();
    if (FENCE.test(text)) {
      // A fenced report (```markdown … ```) is read as if unfenced; fences inside items are dropped.
      close();
      continue;
    }
    if (text === '') {
      close();
      continue;
    }
    const indent = indentOf(raw);
    if (item !== undefined && indent > itemIndent && target !== 'stats') {
      item.push(text);
      section?.lines.push(text);
      continue;
    }
    const label = labelOf(text);
    if (label !== undefined) {
      if (label.target === 'title') {
        close();
        target = undefined;
        section = undefined;
        continue;
      }
      if (label.target === 'unknown') {
        if (target !== undefined || sections.size > 0) warnings.push(() => `unknown section "${quoted(label.label)}" ignored`);
        open('ignore');
        continue;
      }
      open(label.target);
      if (label.inline !== '') {
        if (label.target === 'stats') statsText.push(label.inline);
        else addProse(label.inline);
      }
      continue;
    }
    if (target === undefined || target === 'ignore') continue;
    if (target === 'stats') {
      statsText.push(text);
      continue;
    }
    if (RULE.test(text)) {
      close();
      continue;
    }
    const bullet = readBullet(text);
    if (bullet !== undefined && target !== 'task' && section !== undefined) {
      paragraph = undefined;
      item = [bullet.trim()];
      itemIndent = indent;
      section.items.push(item);
      section.lines.push(text);
      continue;
    }
    addProse(text);
  }

  return { sections, statsText: statsText.join(' '), sawStats };
}

function taskOf(section: Section): string {
  return section.lines.length === 1 && isNone(section.lines[0] ?? '') ? '' : decodeItem(section.lines);
}

function assemble(sections: Map<ReportSectionKey, Section>, warnings: WarningSink, defaults: ParseProgressReportDefaults): ProgressReport {
  if (sections.size === 0) warnings.push('no report sections found');
  const lists = emptyLists();
  const task = sections.get('task');
  let taskText: string;
  if (task === undefined) {
    if (defaults.task === undefined) warnings.push(`missing section "${SECTION_TITLES.task}"; task left empty`);
    taskText = defaults.task ?? '';
  } else {
    taskText = taskOf(task);
    if (taskText === '' && defaults.task !== undefined) taskText = defaults.task;
  }
  for (const key of LIST_KEYS) lists[key] = readList(key, sections.get(key), warnings);
  return {
    task: taskText,
    reason: defaults.reason ?? 'max-iterations',
    ...lists,
    stats: { iterations: 0, toolCalls: 0, elapsedMs: 0 },
    generatedBy: defaults.generatedBy ?? 'model',
  };
}

function readList(key: ReportListKey, section: Section | undefined, warnings: WarningSink): string[] {
  const title = SECTION_TITLES[key];
  if (section === undefined) {
    warnings.push(`missing section "${title}"; left empty`);
    return [];
  }
  if (section.items.length > 0) {
    return section.items.filter((lines) => !(lines.length === 1 && isNone(lines[0] ?? ''))).map(decodeItem);
  }
  const paragraphs = section.paragraphs.filter((p) => !(p.length === 1 && isNone(p[0] ?? '')));
  if (paragraphs.length > 0) {
    warnings.push(`section "${title}" has no list; read ${paragraphs.length} paragraph${paragraphs.length === 1 ? '' : 's'} as items`);
  }
  return paragraphs.map((p) => p.join('\n'));
}

function applyStats(
  report: ProgressReport,
  sawStats: boolean,
  text: string,
  warnings: WarningSink,
  defaults: ParseProgressReportDefaults,
): void {
  const parsed = parseStatsLine(text);
  for (const problem of parsed.problems) warnings.push(`stats: ${problem}`);
  const fallback = defaults.stats;
  const missing: string[] = [];
  const pick = (key: 'iterations' | 'toolCalls' | 'elapsedMs'): number => {
    const value = parsed[key] ?? fallback?.[key];
    if (value === undefined) missing.push(key);
    return value ?? 0;
  };
  report.stats = { iterations: pick('iterations'), toolCalls: pick('toolCalls'), elapsedMs: pick('elapsedMs') };
  const cost = parsed.costUsd ?? fallback?.costUsd;
  if (cost !== undefined) report.stats.costUsd = cost;
  if (missing.length > 0)
    warnings.push(sawStats ? `stats line lacks ${missing.join(', ')}; set to 0` : `no stats line; ${missing.join(', ')} set to 0`);
  if (parsed.reason !== undefined) report.reason = parsed.reason;
  else if (defaults.reason === undefined) warnings.push('no stop reason given; assumed "max-iterations"');
  if (parsed.generatedBy !== undefined) report.generatedBy = parsed.generatedBy;
}
