/**
 * The repository's own test machinery, shared by the packages' suites: finding the programs a
 * test drives (Chromium, tmux, redis-server, PostgreSQL), starting servers and line-oriented
 * child processes, running hostile input in a separate process, and promises and clocks under
 * a test's control. Private: it is never published, so nothing here reaches users.
 *
 * @packageDocumentation
 */
export { createIsolatedRunner, runIsolated } from './run-isolated.js';
export type { IsolatedRun, IsolatedRunner, RunIsolatedOptions } from './run-isolated.js';
export { findTestPart, isExecutable } from './test-part.js';
export type { FindTestPartOptions } from './test-part.js';
export { freePort, startTestServer } from './test-server.js';
export type { TestServer, TestServerOptions } from './test-server.js';
export { startLineProcess } from './test-process.js';
export type { LineProcess, LineProcessOptions } from './test-process.js';
export { deferred, fakeNow, steppingNow } from './test-timing.js';
export type { Deferred, FakeNow } from './test-timing.js';
