export { JSONReporter } from './json-reporter.js';
export type { JSONReporterErrorContext, JSONReporterOptions, JSONReporterStats } from './json-reporter.js';
export { JSONReporterError } from './json-reporter-error.js';
export type { JSONReporterErrorCode } from './json-reporter-error.js';
export type { LineStream } from './line-writer.js';
