import type { ProgressReport } from '@headway/protocol';

/**
 * True when a progress report records work: an iteration or a tool call happened, or it lists
 * completed work or findings. (Attempted but Inconclusive alone is not work: a run that failed at
 * once says there why it failed.) A run that failed
 * before doing anything (no API key) hands over a report without content: keep it with its run,
 * but never let it replace a real one as the report to continue from.
 *
 * @example
 * ```ts
 * if (reportHasContent(result.report)) writeFileSync('.headway/reports/latest.json', JSON.stringify(result.report));
 * ```
 */
export function reportHasContent(report: ProgressReport): boolean {
  return report.stats.iterations > 0 || report.stats.toolCalls > 0 || report.completedWork.length > 0 || report.keyFindings.length > 0;
}
