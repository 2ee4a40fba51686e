export { HeadwayError } from './headway-error.js';
export type { HeadwayErrorOptions, ValidationIssue } from './headway-error.js';
export { ProtocolError } from './protocol-error.js';
export type { ProtocolErrorCode } from './protocol-error.js';
export {
  MAX_DESCRIBED_ISSUES,
  MAX_REPORTED_ISSUES,
  MAX_VALIDATION_ISSUES,
  describeIssues,
  formatPath,
  limitIssues,
  toValidationIssues,
} from './format-issues.js';
export type { DescribeIssuesOptions, LimitIssuesOptions } from './format-issues.js';
export {
  MAX_STALL_EVIDENCE_IDS,
  PROGRESS_EVENT_TYPES,
  STALL_KINDS,
  isTerminalEvent,
  planItemSchema,
  planItemsSchema,
  progressEventSchema,
} from './events.js';
export { MAX_PLAN_ITEM_ID, MAX_PLAN_ITEM_TEXT, MAX_PLAN_ITEMS } from './plan-limits.js';
export type {
  CheckpointSavedEvent,
  EventEnvelope,
  IntermediateResultEvent,
  IterationEvent,
  LimitApproachingEvent,
  LimitKind,
  LimitReachedEvent,
  ModelUsage,
  PlanItem,
  PlanItemStatus,
  PlanUpdatedEvent,
  ProgressEvent,
  ProgressEventBody,
  ProgressEventOf,
  ProgressEventType,
  ProgressUpdateEvent,
  ReportGeneratedEvent,
  RunCancelledEvent,
  RunErrorEvent,
  RunFinishedEvent,
  RunLimits,
  RunStartedEvent,
  StallClearedEvent,
  StallDetectedEvent,
  StallEvidence,
  StallKind,
  StepFinishedEvent,
  StepStartedEvent,
  StrategyRotatedEvent,
  TerminalEvent,
  TextDeltaEvent,
  ThinkingEvent,
  TimeoutExtendedEvent,
  ToolCompletedEvent,
  ToolExecutingEvent,
  ToolFlaggedEvent,
  WindDownStartedEvent,
} from './events.js';
export { STOP_REASONS, progressReportSchema } from './progress-report.js';
export { RUN_END_STATES, describeRunEnd, parseRunEndWord, runEndOf, runEndOfStopReason, runEndWord } from './run-end.js';
export type { RunEnd, RunEndState } from './run-end.js';
export type { ProgressReport, ProgressReportStats, StopReason } from './progress-report.js';
export { renderProgressReport } from './report-markdown/render-progress-report.js';
export { MAX_REPORT_LENGTH, MAX_REPORT_WARNINGS, parseProgressReport } from './report-markdown/parse-progress-report.js';
export type { ParseProgressReportDefaults, ParsedProgressReport } from './report-markdown/parse-progress-report.js';
export { DEFAULT_MAX_EVENT_JSON_LENGTH, parseProgressEvent, parseProgressEventJson } from './parse-progress-event.js';
export type { ParseProgressEventJsonOptions } from './parse-progress-event.js';
export { progressEventJsonSchema } from './json-schema.js';
export { NullReporter, isNullReporter, isProgressReporter } from './progress-reporter.js';
export type { ProgressReporter } from './progress-reporter.js';
export { createReporterEvents, createReporterSink } from './bridges.js';
export type { ProgressSink, ReporterEventsOptions } from './bridges.js';
export { systemClock } from './clock.js';
export type { Clock } from './clock.js';
export { ManualClock } from './manual-clock.js';
export type { ManualClockOptions } from './manual-clock.js';
export type { InternalErrorContext, OnInternalError } from './internal-error.js';
export { createProgressHub } from './progress-hub.js';
export type {
  EventHandler,
  FlushOptions,
  ProgressHub,
  ProgressHubOptions,
  ProgressHubStats,
  SinkErrorContext,
  SinkLike,
} from './progress-hub.js';
export { toolResultPreview } from './tool-result-preview.js';
export type { ToolResultPreviewOptions } from './tool-result-preview.js';
export { safeStringify } from './safe-stringify.js';
export { createRedactor, redact, redactString } from './redact.js';
export type { RedactOptions, Redactor } from './redact.js';
