/** What {@link reopenableStore} gives a conformance suite: the store, a way to reopen it, and its cleanup. */
export interface ReopenableStore<S> {
  store: S;
  /** Closes the store in use and opens another on the same data. */
  reopen: () => Promise<S>;
  /** Closes the store in use. */
  cleanup: () => Promise<void>;
}

/**
 * A store handle for `checkpointStoreConformance` or `sessionStoreConformance` whose `reopen`
 * closes the store in use and opens another on the same data: `open(true)` opens the first,
 * `open(false)` each one after.
 *
 * @example
 * ```ts
 * checkpointStoreConformance('SqliteCheckpointStore', (now) => {
 *   const path = tempPath();
 *   return reopenableStore(() => new SqliteCheckpointStore(path, { clock: { ...systemClock, now } }), (store) => store.close());
 * });
 * ```
 */
export async function reopenableStore<S>(
  open: (first: boolean) => S | Promise<S>,
  close: (store: S) => unknown,
): Promise<ReopenableStore<S>> {
  let current = await open(true);
  return {
    store: current,
    reopen: async () => {
      await close(current);
      current = await open(false);
      return current;
    },
    cleanup: async () => {
      await close(current);
    },
  };
}
