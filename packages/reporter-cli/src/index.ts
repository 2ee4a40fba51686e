export { CLIReporter } from './cli-reporter.js';
export type { CLIReporterErrorContext, CLIReporterOptions } from './cli-reporter.js';
export type { CLIReporterMode, Environment } from './resolve-mode.js';
// eslint-disable-next-line @typescript-eslint/no-deprecated -- kept as an alias for one minor
export type { IntervalTimers } from './cli-reporter.js';
export type { TerminalStream } from './terminal-stream.js';
export { renderReportMarkdown } from './report-markdown.js';
