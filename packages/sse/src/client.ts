// `@headway/sse/client` outside browsers: the fetch-based client (browsers get ./browser.ts).
export { subscribeToRun } from './subscribe-to-run.js';
export type { SubscribeOptions } from './subscribe-to-run.js';
export type { InvalidEventHandler } from './event-gate.js';
export { SseError } from './sse-error.js';
export type { SseErrorCode, SseErrorOptions } from './sse-error.js';
