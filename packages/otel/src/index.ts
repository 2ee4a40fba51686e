export { INSTRUMENTATION_SCOPE, createOtelSink } from './otel-sink.js';
export type { OtelSink, OtelSinkErrorContext, OtelSinkOptions, OtelSinkStats } from './otel-sink.js';
export type { RunOutcome } from './run-trace.js';
