import { describeRunEnd, runEndWord } from '@headway/protocol';
import { checkpointRunInfo, type Checkpoint, type CheckpointSummary } from '@headway/runtime';

/** A run's state as the dashboard shows it: `running`, or one word of the run-end vocabulary. */
export interface DashboardRunState {
  /** `running`, `completed`, `limit:iterations` / `limit:time` / `limit:cost`, `stalled`, `cancelled`, `failed` or `interrupted`. */
  word: string;
  /** The same in words (`stopped at its iteration limit`). */
  text: string;
  /** True while the run is live (`running`). */
  active: boolean;
}

/**
 * The one place store data becomes a state word. A `running` checkpoint held by a worker's lease
 * (a store with leases, such as Postgres with `worker`) is `running` while the lease is live and
 * `interrupted` once it has expired: its worker stopped renewing it (a crash or a kill), so no
 * guess from the age of its writes is needed. Without a lease, a `running` checkpoint written
 * within `activeWithinMs` of `now` is `running`, one whose writes stopped longer ago is
 * `interrupted`. A finished run reads the end the runtime recorded with its checkpoint, else what
 * the checkpoint's lifecycle says.
 *
 * @example
 * ```ts
 * const state = dashboardRunState(summary, await store.load(summary.id), { now: Date.now(), activeWithinMs: 60_000 });
 * console.log(state.word); // 'running'
 * ```
 */
export function dashboardRunState(
  summary: CheckpointSummary,
  checkpoint: Checkpoint | undefined,
  options: { now: number; activeWithinMs: number },
): DashboardRunState {
  if (summary.status === 'running') {
    const live = summary.lease === undefined ? options.now - summary.updatedAt <= options.activeWithinMs : summary.lease.live;
    if (live) return { word: 'running', text: 'running', active: true };
    const end = { state: 'interrupted' } as const;
    return { word: runEndWord(end), text: describeRunEnd(end), active: false };
  }
  const recorded = checkpoint === undefined ? undefined : checkpointRunInfo(checkpoint).end;
  const end =
    recorded !== undefined && recorded.state !== 'interrupted'
      ? recorded
      : summary.status === 'failed'
        ? ({ state: 'failed' } as const)
        : summary.status === 'abandoned'
          ? ({ state: 'cancelled' } as const)
          : ({ state: 'completed' } as const);
  return { word: runEndWord(end), text: describeRunEnd(end), active: false };
}
