export { CLIReporter } from './cli-reporter.js';
export type { CLIReporterErrorContext, CLIReporterOptions } from './cli-reporter.js';
export type { CLIReporterMode, Environment } from './resolve-mode.js';
export type { TerminalStream } from './terminal-stream.js';
export { renderReportMarkdown } from './report-markdown.js';
