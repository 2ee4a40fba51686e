import { MAX_PLAN_ITEMS } from '@headway/protocol';
import { z } from 'zod';
import type { PlanProgressState } from './plan-progress.js';

/** The serialisable state of a {@link ProgressTracker}: checkpoints carry it so a resumed bar continues. */
export interface ProgressTrackerState {
  version: 1;
  /** The percent last shown (the floor a restored tracker never goes below). */
  percent: number;
  message?: string;
  completed: boolean;
  /** Roundtrips started, and finished. */
  roundtrips: number;
  finishedRoundtrips: number;
  phase: 'idle' | 'llm' | 'tools';
  toolCalls: number;
  /** Tool calls since the current step started. */
  stepToolCalls: number;
  currentStep?: string;
  finishedSteps: string[];
  /** Last validated model report and the roundtrip count it arrived at. */
  model?: { percent: number; atRoundtrip: number };
  /** Exponentially weighted mean durations per phase, and how many roundtrips fed them. */
  llmMs?: number;
  toolsMs?: number;
  observedRoundtrips: number;
  /** The agent's plan as the tracker last read it, so a resumed bar keeps following it. */
  plan?: PlanProgressState;
  /** Time spent in the run before the state was saved. */
  elapsedMs: number;
}

/** Most finished step names a saved state may list (a run has a handful of steps). */
export const MAX_STATE_STEPS = 1_000;
/** Longest message or step name a saved state may hold. */
const MAX_STATE_TEXT = 10_000;

const count = z.int().min(0);
const ms = z.number().min(0).refine(Number.isFinite, { error: 'expected a finite number' });

/** Validates a {@link ProgressTrackerState} read back from a checkpoint. */
export const progressTrackerStateSchema: z.ZodType<ProgressTrackerState> = z.strictObject({
  version: z.literal(1),
  percent: z.int().min(0).max(100),
  message: z.string().max(MAX_STATE_TEXT).exactOptional(),
  completed: z.boolean(),
  roundtrips: count,
  finishedRoundtrips: count,
  phase: z.enum(['idle', 'llm', 'tools']),
  toolCalls: count,
  stepToolCalls: count,
  currentStep: z.string().max(MAX_STATE_TEXT).exactOptional(),
  finishedSteps: z.array(z.string().max(MAX_STATE_TEXT)).max(MAX_STATE_STEPS),
  model: z.strictObject({ percent: z.number().min(0).max(100), atRoundtrip: count }).exactOptional(),
  llmMs: ms.exactOptional(),
  toolsMs: ms.exactOptional(),
  observedRoundtrips: count,
  plan: z
    .strictObject({
      total: z.int().min(1).max(MAX_PLAN_ITEMS),
      completed: count,
      inProgress: count,
      maintained: z.boolean(),
      restarted: z.boolean(),
      phase: z.int().min(2).max(1_000_000).exactOptional(),
      phaseStart: z.number().min(0).max(100).exactOptional(),
      phaseRoundtrip: count.exactOptional(),
      queue: z.boolean().exactOptional(),
      changedAtRoundtrip: count,
      declaredAtMs: ms,
      completedAtMs: ms,
    })
    .refine((p) => p.completed + p.inProgress <= p.total, { error: 'completed and in-progress items exceed the total' })
    .exactOptional(),
  elapsedMs: ms,
});
