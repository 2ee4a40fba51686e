import { z } from 'zod';

/** One earlier run of the same kind of task. */
export interface TaskHistoryRun {
  /** Model calls the run made in total. */
  roundtrips: number;
  /** Wall-clock duration of the whole run. */
  durationMs: number;
}

/**
 * Earlier runs of the same kind of task. The tracker uses them as its prior on how many
 * roundtrips a run takes and how long one lasts, so a task that usually ends after 4
 * roundtrips does not sit at 10% after its first of a cap of 30.
 */
export interface TaskHistory {
  runs: TaskHistoryRun[];
}

/** Validates a {@link TaskHistory} read from storage. */
export const taskHistorySchema: z.ZodType<TaskHistory> = z.strictObject({
  runs: z.array(
    z.strictObject({
      roundtrips: z.int().min(1),
      durationMs: z.number().nonnegative().refine(Number.isFinite, { error: 'expected a finite number' }),
    }),
  ),
});
