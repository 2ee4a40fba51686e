export { main, HELP, VERSION } from './main.js';
export { createProcessIo } from './io/cli-io.js';
export type { CliIo } from './io/cli-io.js';
export { CliError, EXIT } from './cli-error.js';
export type { CliErrorCode, CliErrorOptions } from './cli-error.js';
export { AGENT_FORMATS } from './convert/converter.js';
export type { AgentFormat, ConvertedEvent, StreamConverter } from './convert/converter.js';
export { ClaudeCodeConverter } from './convert/claude-code.js';
export type { ConverterOptions } from './convert/claude-code.js';
export { CodexConverter } from './convert/codex.js';
export { GeminiConverter } from './convert/gemini.js';
export { detectFormat } from './convert/detect-format.js';
export { EventStream, createConverter } from './convert/event-stream.js';
export type { EventStreamOptions } from './convert/event-stream.js';
export { FRAME_MS, LiveFeed } from './live-feed.js';
export type { LiveFeedOptions } from './live-feed.js';
// eslint-disable-next-line @typescript-eslint/no-deprecated -- deprecated aliases, removed in the next minor
export { processIo } from './io/cli-io.js';
