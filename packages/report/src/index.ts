export { ToolCallLog, DEFAULT_MAX_ENTRIES } from './tool-call-log.js';
export type { ToolCallLogOptions, ToolCallRecord, TextRecord } from './tool-call-log.js';
export { toolCallLogStateSchema } from './tool-call-log-state.js';
export type { OmittedSummary, TextEntry, ToolCallEntry, ToolCallLogEntry, ToolCallLogState, ToolTally } from './tool-call-log-state.js';
export { ReportError } from './report-error.js';
export type { ReportErrorCode } from './report-error.js';
export { renderProgressReport } from './render-progress-report.js';
export { parseProgressReport } from './parse-progress-report.js';
export type { ParseProgressReportDefaults, ParsedProgressReport } from './parse-progress-report.js';
