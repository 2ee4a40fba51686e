export { ToolCallLog, DEFAULT_MAX_ENTRIES } from './tool-call-log.js';
export type { ToolCallLogOptions, ToolCallRecord, TextRecord } from './tool-call-log.js';
export { toolCallLogStateSchema } from './tool-call-log-state.js';
export type { OmittedSummary, TextEntry, ToolCallEntry, ToolCallLogEntry, ToolCallLogState, ToolTally } from './tool-call-log-state.js';
export { ReportError } from './report-error.js';
export type { ReportErrorCode } from './report-error.js';
// The report's Markdown form lives in protocol, so every package prints and reads one format;
// re-exported here, where users of the report look for it.
export { MAX_REPORT_LENGTH, MAX_REPORT_WARNINGS, parseProgressReport, renderProgressReport } from '@headway/protocol';
export type { ParseProgressReportDefaults, ParsedProgressReport } from '@headway/protocol';
export { buildReportPrompt } from './report-prompt.js';
export type { ReportPromptContext, ReportPromptLimits } from './report-prompt.js';
export { buildFallbackReport } from './fallback-report.js';
export type { FallbackReportContext } from './fallback-report.js';
export { continuationPrompt } from './continuation-prompt.js';
export { reportHasContent } from './report-content.js';
