import { renderProgressReport, type ProgressReport } from '@headway/protocol';
import { safeLines } from './terminal-text.js';

/**
 * A progress report as Markdown for the terminal: protocol's `renderProgressReport` (the one
 * format the runtime, `@headway/report` and `headway report` print and read back) with the
 * control characters a model may have written neutralised, so no escape sequence reaches
 * the terminal. Pasted back into `parseProgressReport`, it reads as the same report (text
 * with control characters aside).
 *
 * @example
 * ```ts
 * process.stderr.write(`${renderReportMarkdown(event.report)}\n`);
 * ```
 */
export function renderReportMarkdown(report: ProgressReport): string {
  // The renderer's own line breaks are `\n`; a U+2028/U+2029 inside an item is the model's text,
  // and safeLines would turn it into a line break that splits the item, so it is shown as U+FFFD.
  const markdown = safeLines(renderProgressReport(report).replace(/[\u2028\u2029]/g, '\uFFFD'));
  // The printer adds its own line breaks around the report: drop the final one.
  return markdown.endsWith('\n') ? markdown.slice(0, -1) : markdown;
}
