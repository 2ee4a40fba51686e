export { SseError } from './sse-error.js';
export type { SseErrorCode, SseErrorOptions } from './sse-error.js';
export { SSE_EVENT_NAME, SSE_HEARTBEAT, formatProgressFrame, formatRetryFrame, formatSseFrame } from './sse-frame.js';
export type { SseFrame } from './sse-frame.js';
export { createReplayLog } from './replay-log.js';
export type { ReplayCursor, ReplayLog, ReplayLogOptions, ReplayLogStats, ReplayOpenResult, ReplayRefusal } from './replay-log.js';
export type { CorsOptions } from './cors.js';
export type { DisconnectReason } from './client-stream.js';
export type { ReplaySource, SseSource } from './sse-source.js';
export type { AuthorizeResult, SseServeOptions } from './sse-request.js';
// eslint-disable-next-line @typescript-eslint/no-deprecated -- kept as an alias for one minor
export type { IntervalTimers } from './sse-request.js';
export { createSseHandler } from './sse-handler.js';
export type { SseHandler, SseHandlerOptions } from './sse-handler.js';
export { createSseResponse } from './sse-response.js';
export type { SseResponseOptions } from './sse-response.js';
export { createSocketIoSink } from './socket-io-sink.js';
export type { SocketIoSinkErrorContext, SocketIoSinkOptions, SocketIoTarget } from './socket-io-sink.js';
export { subscribeToRun } from './subscribe-to-run.js';
export type { SubscribeOptions } from './subscribe-to-run.js';
// eslint-disable-next-line @typescript-eslint/no-deprecated -- kept as an alias for one minor
export type { TimeoutTimers } from './subscribe-to-run.js';
export type { InvalidEventHandler } from './event-gate.js';
// eslint-disable-next-line @typescript-eslint/no-deprecated -- deprecated aliases, removed in the next minor
export { sseResponse } from './sse-response.js';
// eslint-disable-next-line @typescript-eslint/no-deprecated -- deprecated aliases, removed in the next minor
export { socketIoSink } from './socket-io-sink.js';
