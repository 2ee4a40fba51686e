import type { ProgressReport } from '@headway/protocol';
import { formatDuration } from './format-duration.js';
import { oneLine, safeLines } from './terminal-text.js';
import { stopReasonText } from './event-text.js';

const SECTIONS: readonly (readonly [string, (r: ProgressReport) => readonly string[]])[] = [
  ['Completed Work', (r) => r.completedWork],
  ['Key Findings', (r) => r.keyFindings],
  ['Attempted but Inconclusive', (r) => r.attemptedInconclusive],
  ['Not Started / Remaining', (r) => r.remaining],
  ['Suggested Next Steps', (r) => r.suggestedNextSteps],
];

function bullet(item: string): string {
  // Continuation lines are indented so a multi-line item stays one list item.
  return `- ${safeLines(item).trim().split('\n').join('\n  ')}`;
}

/**
 * A progress report as Markdown for the terminal: a `## PROGRESS REPORT` heading, a line
 * saying why the run stopped and how far it got, then the six sections Task, Completed
 * Work, Key Findings, Attempted but Inconclusive, Not Started / Remaining and Suggested
 * Next Steps. An empty section reads `- (none)`. Control characters in the report's text
 * are neutralised, because a model wrote it.
 *
 * @example
 * ```ts
 * process.stderr.write(`${renderReportMarkdown(event.report)}\n`);
 * ```
 */
export function renderReportMarkdown(report: ProgressReport): string {
  const { stats } = report;
  const facts = [
    `${stats.iterations} iteration(s)`,
    `${stats.toolCalls} tool call(s)`,
    formatDuration(stats.elapsedMs),
    ...(stats.costUsd === undefined ? [] : [`$${stats.costUsd.toFixed(2)}`]),
  ];
  const author = report.generatedBy === 'model' ? 'written by the model' : 'built from the tool-call log';
  const lines = [
    '## PROGRESS REPORT',
    '',
    `Stopped because ${stopReasonText(report.reason)} · ${facts.join(' · ')} · ${author}`,
    '',
    '### Task',
    '',
    safeLines(report.task).trim() || '(none)',
  ];
  for (const [title, items] of SECTIONS) {
    const list = items(report).filter((item) => oneLine(item).trim() !== '');
    lines.push('', `### ${title}`, '', ...(list.length === 0 ? ['- (none)'] : list.map(bullet)));
  }
  return lines.join('\n');
}
