// Rows keep the slot they first had: a run that ends stays where it is until the filters change
// or the page reloads, so nothing moves under the cursor. A run seen for the first time goes in
// with its kind: a live one before the first run that is not live now, any other at the end.

/** The slots of the list, kept across snapshots. */
export interface StableOrder {
  /** The runs of a snapshot in their slots (runs gone from the snapshot are left out). */
  place<T extends { id: string; active: boolean }>(runs: readonly T[]): T[];
}

/** A new, empty order (one per list view and set of filters). */
export function createStableOrder(): StableOrder {
  const order: string[] = [];
  const known = new Set<string>();
  return {
    place<T extends { id: string; active: boolean }>(runs: readonly T[]): T[] {
      const byId = new Map(runs.map((run) => [run.id, run]));
      const freshLive: string[] = [];
      for (const run of runs) {
        if (known.has(run.id)) continue;
        known.add(run.id);
        if (run.active) freshLive.push(run.id);
        else order.push(run.id);
      }
      if (freshLive.length > 0) {
        const at = order.findIndex((id) => byId.get(id)?.active !== true);
        order.splice(at === -1 ? order.length : at, 0, ...freshLive);
      }
      const placed: T[] = [];
      for (const id of order) {
        const run = byId.get(id);
        if (run !== undefined) placed.push(run);
      }
      return placed;
    },
  };
}
