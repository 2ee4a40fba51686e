import type { CheckpointStore } from '../checkpoint/checkpoint-store.js';

/** A store the crash suite opened, and how to close it. */
export interface CrashStore {
  store: CheckpointStore;
  close: () => void | Promise<void>;
}

/**
 * What a store package's crash module exports for {@link crashRecoverySuite}: a function that
 * opens its store at `location` and calls `crash(label)` at the store's own kill points (inside
 * a write transaction, say), so the suite can SIGKILL the process exactly there.
 */
export interface CrashStoreModule {
  openCrashStore: (location: string, crash: (label: string) => void) => CrashStore | Promise<CrashStore>;
}
