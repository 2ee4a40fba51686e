import type { ProgressReport, ProgressReportStats, StopReason } from '@headway/protocol';
import { buildFallbackReport, parseProgressReport, type ToolCallLog } from '@headway/report';

/** A report and what went wrong while getting it. */
export interface ReportWithWarnings {
  report: ProgressReport;
  warnings: string[];
}

/** Most characters of a model's answer read as a report: a bounded parse of hostile text. */
const MAX_REPORT_CHARS = 200_000;

/**
 * Reads the model's answer to the report prompt. An answer with no report sections (garbage,
 * a refusal, an empty string) gives the deterministic fallback from the tool-call log instead,
 * with a warning saying why.
 */
export function reportFromModel(
  text: string | undefined,
  ctx: { task: string; reason: StopReason; stats: ProgressReportStats; log: ToolCallLog },
): ReportWithWarnings {
  const fallback = (why: string): ReportWithWarnings => ({
    report: buildFallbackReport({ task: ctx.task, log: ctx.log, reason: ctx.reason, stats: ctx.stats }),
    warnings: [`the model's report was not usable (${why}); built the report from the tool-call log`],
  });
  if (text === undefined || text.trim() === '') return fallback('no text');
  const { report, warnings } = parseProgressReport(text.slice(0, MAX_REPORT_CHARS), {
    task: ctx.task,
    reason: ctx.reason,
    stats: ctx.stats,
    generatedBy: 'model',
  });
  if (warnings.includes('no report sections found')) return fallback('no report sections found');
  const items =
    report.completedWork.length +
    report.keyFindings.length +
    report.attemptedInconclusive.length +
    report.remaining.length +
    report.suggestedNextSteps.length;
  if (items === 0) return fallback('every section was empty');
  // The loop knows why it stopped and its counters for certain; the model does not.
  return { report: { ...report, reason: ctx.reason, stats: { ...ctx.stats } }, warnings: warnings.map((w) => `model report: ${w}`) };
}
