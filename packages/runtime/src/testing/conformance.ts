/**
 * Conformance suites for `CheckpointStore` and `SessionStore` implementations and the SIGKILL
 * crash suite, for vitest. Any store package (headway's or yours) runs the same suites by
 * passing a factory. Needs `vitest` (and `esbuild` for the crash suite) as dev dependencies;
 * the vitest-free helpers (the scripted provider and server) are `@headway/runtime/testing`.
 *
 * @example
 * ```ts
 * import { systemClock } from '@headway/protocol';
 * import { checkpointStoreConformance } from '@headway/runtime/testing/conformance';
 * checkpointStoreConformance('MyStore', (now) => ({ store: new MyStore({ clock: { ...systemClock, now } }) }));
 * ```
 *
 * @packageDocumentation
 */
export { checkpointStoreConformance, checkpointInit, checkpointRound, checkpointState } from './checkpoint-store-conformance.js';
export { reopenableStore } from './reopenable-store.js';
export type { ReopenableStore } from './reopenable-store.js';
export type { CheckpointStoreFactory, CheckpointStoreHandle } from './checkpoint-store-conformance.js';
export { sessionStoreConformance } from './session-store-conformance.js';
export type { SessionStoreFactory, SessionStoreHandle } from './session-store-conformance.js';
export { runRequestStoreConformance } from './run-request-store-conformance.js';
export type { RunRequestStoreFactory, RunRequestStoreHandle } from './run-request-store-conformance.js';
export { CRASH_KILL_POINTS, crashRecoverySuite } from './crash-recovery-suite.js';
export { CHECKPOINT_WRITE_KILL_POINTS, checkpointWriteInFlightCall } from './checkpoint-write-kill-points.js';
export type { CrashRecoverySuiteOptions } from './crash-recovery-suite.js';
export type { CrashStore, CrashStoreModule } from './crash-store.js';
export { useScriptedServer } from './use-scripted-server.js';
