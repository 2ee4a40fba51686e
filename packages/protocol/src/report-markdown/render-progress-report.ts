import type { ProgressReport } from '../progress-report.js';
import { readBack } from './parse-progress-report.js';
import { LIST_KEYS, SECTION_TITLES } from './report-sections.js';
import { renderStatsLine } from './stats-line.js';

const NONE_LINE = '_None._';

/** `- first line` with continuation lines indented two spaces. */
function readableItem(item: string): string {
  const [first = '', ...rest] = item.split('\n');
  return [`- ${first}`, ...rest.map((line) => `  ${line}`)].join('\n');
}

/**
 * An item as Markdown: readable when the parser reads that back exactly, otherwise as a
 * JSON string (`- "  indented\n\ncode"`), which the parser decodes. This keeps the
 * round trip exact for any text without making ordinary items ugly.
 */
function renderItem(item: string): string {
  const readable = readableItem(item);
  const back = readBack(`### Key Findings\n\n${readable}\n`, 'keyFindings');
  return Array.isArray(back) && back.length === 1 && back[0] === item ? readable : `- ${JSON.stringify(item)}`;
}

function renderTask(task: string): string {
  if (task === '') return NONE_LINE;
  return readBack(`### Task\n\n${task}\n`, 'task') === task ? task : JSON.stringify(task);
}

/**
 * Renders a report as Markdown: `## PROGRESS REPORT`, a stats line (iterations, tool
 * calls, elapsed, cost when known, why the run stopped, who wrote the report), then the
 * six sections in order as `###` headings — Task, Completed Work, Key Findings, Attempted
 * but Inconclusive, Not Started / Remaining, Suggested Next Steps — items as bullets and
 * `_None._` for an empty section.
 *
 * Lossless: {@link parseProgressReport} reads the output back to a report that deep-equals
 * the input (numbers unrounded, `costUsd` absent when it was absent). Text that Markdown
 * would change (leading spaces, blank lines, a line that looks like a heading) is written
 * as a JSON string.
 *
 * @example
 * ```ts
 * const markdown = renderProgressReport(report);
 * // ## PROGRESS REPORT
 * //
 * // **Stats:** 30 iterations · 87 tool calls · 252000 ms elapsed (4m 12s) · stopped: max-iterations (…) · written by: model
 * //
 * // ### Task
 * // …
 * ```
 */
export function renderProgressReport(report: ProgressReport): string {
  const out = ['## PROGRESS REPORT', '', renderStatsLine(report), '', `### ${SECTION_TITLES.task}`, '', renderTask(report.task), ''];
  for (const key of LIST_KEYS) {
    out.push(`### ${SECTION_TITLES[key]}`, '');
    const items = report[key];
    if (items.length === 0) out.push(NONE_LINE);
    else for (const item of items) out.push(renderItem(item));
    out.push('');
  }
  return out.join('\n');
}
