export { INSTRUMENTATION_SCOPE, createOtelSink } from './otel-sink.js';
export type { OtelSink, OtelSinkErrorContext, OtelSinkOptions, OtelSinkStats } from './otel-sink.js';
export type { RunOutcome } from './run-trace.js';
// eslint-disable-next-line @typescript-eslint/no-deprecated -- deprecated aliases, removed in the next minor
export { otelSink } from './otel-sink.js';
