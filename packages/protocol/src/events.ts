import { z } from 'zod';
import { MAX_PLAN_ITEM_ID, MAX_PLAN_ITEM_TEXT, MAX_PLAN_ITEMS } from './plan-limits.js';
import { progressReportSchema, STOP_REASONS, type ProgressReport, type StopReason } from './progress-report.js';

/** Fields every event carries: which run, its position in the run, and when. */
export interface EventEnvelope {
  runId: string;
  /** Strictly increasing per run, starting at 1. */
  seq: number;
  /** Epoch milliseconds. */
  ts: number;
}

/** A limit a run can reach. */
export type LimitKind = 'iterations' | 'time' | 'cost';

/** The budgets a run was given: at most this many iterations, milliseconds, US dollars. */
export type RunLimits = Partial<Record<LimitKind, number>>;

/** Token counts of one model call. */
export interface ModelUsage {
  inputTokens: number;
  outputTokens: number;
}

/** The run began. */
export interface RunStartedEvent extends EventEnvelope {
  type: 'run.started';
  agentName: string;
  task?: string;
  /** The session (conversation) the run belongs to. */
  sessionId?: string;
  /** The budgets the run was given (time in ms, cost in USD). */
  limits?: RunLimits;
  /** Set when this run continues an earlier one (from its progress report): that run's id. */
  parentRunId?: string;
}
/** A unit of work (usually one model call) began. */
export interface StepStartedEvent extends EventEnvelope {
  type: 'step.started';
  step: string;
  description?: string;
  /** Set when the step is a model call: the provider asked (`openai`, `anthropic`, …). */
  provider?: string;
  /** Set when the step is a model call that names its model. */
  model?: string;
}
/** A unit of work ended. */
export interface StepFinishedEvent extends EventEnvelope {
  type: 'step.finished';
  step: string;
  durationMs: number;
  /** For a model call: the tokens it used. */
  usage?: ModelUsage;
  /** For a model call: why the model stopped (`stop`, `tool_calls`, `length`, `content_filter`, `other`). */
  finishReason?: string;
  /** For a model call: what it cost in USD, when it was priced. */
  costUsd?: number;
}
/** Reasoning text the model shared. */
export interface ThinkingEvent extends EventEnvelope {
  type: 'thinking';
  content: string;
}
/** A tool call started. */
export interface ToolExecutingEvent extends EventEnvelope {
  type: 'tool.executing';
  toolName: string;
  toolCallId?: string;
  args?: unknown;
}
/** A tool call ended. */
export interface ToolCompletedEvent extends EventEnvelope {
  type: 'tool.completed';
  toolName: string;
  toolCallId?: string;
  durationMs: number;
  ok: boolean;
  preview?: string;
}
/** A piece of streamed text. */
export interface TextDeltaEvent extends EventEnvelope {
  type: 'text.delta';
  text: string;
}
/** The overall percent (0–100) changed. */
export interface ProgressUpdateEvent extends EventEnvelope {
  type: 'progress';
  percent: number;
  message?: string;
  /** Best guess of the time left, in ms. */
  etaMs?: number;
  /** Low end (about the 10th percentile) of the time left, in ms; present only with evidence. */
  etaLowMs?: number;
  /** High end (about the 90th percentile) of the time left, in ms; present only with evidence. */
  etaHighMs?: number;
  /** True when the percent is a guess (no cap, plan or history yet): show it as `~12%`, without an ETA. */
  guess?: boolean;
  /** Which of the agent's plans the percent follows (1, 2, …) once a finished plan was replaced by a new one. */
  plan?: number;
}
/** A partial result worth showing before the run ends. */
export interface IntermediateResultEvent extends EventEnvelope {
  type: 'intermediate.result';
  content: string;
}
/** Terminal: the run ended, either done or stopped at a limit (with a report). */
export interface RunFinishedEvent extends EventEnvelope {
  type: 'run.finished';
  durationMs: number;
  tokenCount?: number;
  outcome: 'completed' | 'limit';
  summary?: string;
  /**
   * With `outcome: 'limit'`: why the run stopped short (which limit, or `stalled`). Read a run's
   * end with `runEndOf`, which turns this into the one run-state word.
   */
  stopReason?: StopReason;
}
/** Terminal: the run failed. */
export interface RunErrorEvent extends EventEnvelope {
  type: 'run.error';
  error: string;
}
/** Terminal: the run was cancelled. */
export interface RunCancelledEvent extends EventEnvelope {
  type: 'run.cancelled';
  reason?: string;
}
/** A new round of the loop began (`index` is zero-based). */
export interface IterationEvent extends EventEnvelope {
  type: 'iteration';
  index: number;
  max: number;
}
/** A limit is 80% used. */
export interface LimitApproachingEvent extends EventEnvelope {
  type: 'limit.approaching';
  limit: LimitKind;
  used: number;
  max: number;
}
/** A limit was reached. */
export interface LimitReachedEvent extends EventEnvelope {
  type: 'limit.reached';
  limit: LimitKind;
  used: number;
  max: number;
}
/** The run is winding down: it has `graceIterations` more rounds to write its report. */
export interface WindDownStartedEvent extends EventEnvelope {
  type: 'wind-down.started';
  reason: string;
  graceIterations: number;
}
/** The time budget was extended. */
export interface TimeoutExtendedEvent extends EventEnvelope {
  type: 'timeout.extended';
  byMs: number;
  totalBudgetMs: number;
}
/** The run's state was saved and can be resumed from here. */
export interface CheckpointSavedEvent extends EventEnvelope {
  type: 'checkpoint.saved';
  checkpointId: string;
  iteration: number;
}
/**
 * A tool's output looked like a prompt injection (instructions aimed at the model, role
 * markers, hidden unicode). It was passed on to the model wrapped as untrusted data.
 */
export interface ToolFlaggedEvent extends EventEnvelope {
  type: 'tool.flagged';
  toolName: string;
  toolCallId?: string;
  /** What was found, e.g. `instruction "ignore previous instructions"`. */
  findings: string[];
}
/** A tool failed several times in a row; the model was asked to change strategy. */
export interface StrategyRotatedEvent extends EventEnvelope {
  type: 'strategy.rotated';
  toolName: string;
  failures: number;
}
/** Where one item of an agent's plan stands. */
export type PlanItemStatus = 'pending' | 'in_progress' | 'completed';

/** One item of the plan an agent keeps for itself (a todo). */
export interface PlanItem {
  /** Stable id when the agent gives one; items are otherwise matched by position. */
  id?: string;
  text: string;
  status: PlanItemStatus;
}

/**
 * The agent's own plan changed: the whole list, as it stands now (each update replaces the
 * previous one). Texts are redacted like every other event text.
 */
export interface PlanUpdatedEvent extends EventEnvelope {
  type: 'plan.updated';
  items: PlanItem[];
}

/**
 * How a run looks stuck: the same call with the same result again and again
 * (`repeated-call`), the same call failing the same way (`repeated-failure`), two calls
 * alternating with unchanged results (`ping-pong`), no new plan item done and no new tool
 * result for several iterations (`no-progress`), or the model writing the same text turn
 * after turn (`repeated-text`).
 */
export type StallKind = 'repeated-call' | 'repeated-failure' | 'ping-pong' | 'no-progress' | 'repeated-text';

/** Every {@link StallKind}, in a stable order. */
export const STALL_KINDS: readonly StallKind[] = ['repeated-call', 'repeated-failure', 'ping-pong', 'no-progress', 'repeated-text'];

/** What a stall was seen in: the calls involved and what repeated, for people. */
export interface StallEvidence {
  /** The tool-call ids involved, oldest first (at most {@link MAX_STALL_EVIDENCE_IDS}). */
  toolCallIds: string[];
  /** What repeated, short and redacted: `ls src/work`, `read_file ↔ write_file`, a text's first words. */
  subject: string;
  /** How many times it repeated in a row (iterations, for `no-progress`). */
  repeats: number;
}

/** Most tool-call ids one {@link StallEvidence} carries. */
export const MAX_STALL_EVIDENCE_IDS = 50;

/**
 * The run looks stuck (see {@link StallKind}). The estimator freezes the percent and drops the
 * ETA until `stall.cleared`.
 */
export interface StallDetectedEvent extends EventEnvelope {
  type: 'stall.detected';
  kind: StallKind;
  evidence: StallEvidence;
  /** The iteration (zero-based) where the repetition began. */
  since: number;
}

/** The stall reported by the last `stall.detected` ended: the run did something new. */
export interface StallClearedEvent extends EventEnvelope {
  type: 'stall.cleared';
  kind: StallKind;
  /** The `since` of the `stall.detected` it ends. */
  since: number;
}

/** A structured progress report was produced for a run that stopped short. */
export interface ReportGeneratedEvent extends EventEnvelope {
  type: 'report.generated';
  report: ProgressReport;
}

/**
 * The canonical progress data of a run: a union discriminated on `type`. This is what is
 * serialised (JSON lines, SSE, audit detail) and validated when read back.
 */
export type ProgressEvent =
  | RunStartedEvent
  | StepStartedEvent
  | StepFinishedEvent
  | ThinkingEvent
  | ToolExecutingEvent
  | ToolCompletedEvent
  | TextDeltaEvent
  | ProgressUpdateEvent
  | IntermediateResultEvent
  | RunFinishedEvent
  | RunErrorEvent
  | RunCancelledEvent
  | IterationEvent
  | LimitApproachingEvent
  | LimitReachedEvent
  | WindDownStartedEvent
  | TimeoutExtendedEvent
  | CheckpointSavedEvent
  | ReportGeneratedEvent
  | ToolFlaggedEvent
  | StrategyRotatedEvent
  | PlanUpdatedEvent
  | StallDetectedEvent
  | StallClearedEvent;

/** The `type` of any {@link ProgressEvent}. */
export type ProgressEventType = ProgressEvent['type'];

/** The event of one `type`. */
export type ProgressEventOf<T extends ProgressEventType> = Extract<ProgressEvent, { type: T }>;

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** An event without its envelope: what code emits; the hub stamps `runId`, `seq` and `ts`. */
export type ProgressEventBody = DistributiveOmit<ProgressEvent, keyof EventEnvelope>;

/** Events after which nothing more is emitted for the run. */
export type TerminalEvent = RunFinishedEvent | RunErrorEvent | RunCancelledEvent;

/** Every event type, seed types first, in a stable order. */
export const PROGRESS_EVENT_TYPES: readonly ProgressEventType[] = [
  'run.started',
  'step.started',
  'step.finished',
  'thinking',
  'tool.executing',
  'tool.completed',
  'text.delta',
  'progress',
  'intermediate.result',
  'run.finished',
  'run.error',
  'run.cancelled',
  'iteration',
  'limit.approaching',
  'limit.reached',
  'wind-down.started',
  'timeout.extended',
  'checkpoint.saved',
  'report.generated',
  'tool.flagged',
  'strategy.rotated',
  'plan.updated',
  'stall.detected',
  'stall.cleared',
];

/** True for `run.finished`, `run.error` and `run.cancelled`. */
export function isTerminalEvent(event: { readonly type: string }): event is TerminalEvent {
  return event.type === 'run.finished' || event.type === 'run.error' || event.type === 'run.cancelled';
}

const duration = z.number().nonnegative();
const count = z.number().int().nonnegative();
const limitKind = z.enum(['iterations', 'time', 'cost']);
const stallKind = z.enum(['repeated-call', 'repeated-failure', 'ping-pong', 'no-progress', 'repeated-text']);
const runLimits = z.object({
  iterations: z.number().nonnegative().exactOptional(),
  time: z.number().nonnegative().exactOptional(),
  cost: z.number().nonnegative().exactOptional(),
});

/** zod schema of one {@link PlanItem}. Unknown keys are dropped. */
export const planItemSchema: z.ZodType<PlanItem> = z.object({
  id: z.string().min(1).max(MAX_PLAN_ITEM_ID).exactOptional(),
  text: z.string().min(1).max(MAX_PLAN_ITEM_TEXT),
  status: z.enum(['pending', 'in_progress', 'completed']),
});

/**
 * zod schema of a whole plan: 1 to {@link MAX_PLAN_ITEMS} items, ids (where given) unique.
 */
export const planItemsSchema: z.ZodType<PlanItem[]> = z
  .array(planItemSchema)
  .min(1)
  .max(MAX_PLAN_ITEMS)
  .superRefine((items, ctx) => {
    const seen = new Map<string, number>();
    items.forEach((item, index) => {
      if (item.id === undefined) return;
      const first = seen.get(item.id);
      if (first !== undefined) {
        ctx.addIssue({ code: 'custom', path: [index, 'id'], message: `duplicate id "${item.id}" (first at item ${first})` });
      } else seen.set(item.id, index);
    });
  });

function event<const T extends string, S extends z.ZodRawShape>(type: T, shape: S) {
  return z.object({
    type: z.literal(type),
    runId: z.string().min(1),
    seq: z.number().int().positive(),
    ts: z.number().nonnegative(),
    ...shape,
  });
}

const eventSchemas = z.discriminatedUnion('type', [
  event('run.started', {
    agentName: z.string(),
    task: z.string().exactOptional(),
    sessionId: z.string().exactOptional(),
    limits: runLimits.exactOptional(),
    parentRunId: z.string().min(1).exactOptional(),
  }),
  event('step.started', {
    step: z.string(),
    description: z.string().exactOptional(),
    provider: z.string().exactOptional(),
    model: z.string().exactOptional(),
  }),
  event('step.finished', {
    step: z.string(),
    durationMs: duration,
    usage: z.object({ inputTokens: count, outputTokens: count }).exactOptional(),
    finishReason: z.string().exactOptional(),
    costUsd: z.number().nonnegative().exactOptional(),
  }),
  event('thinking', { content: z.string() }),
  event('tool.executing', {
    toolName: z.string(),
    toolCallId: z.string().exactOptional(),
    args: z.unknown().exactOptional(),
  }),
  event('tool.completed', {
    toolName: z.string(),
    toolCallId: z.string().exactOptional(),
    durationMs: duration,
    ok: z.boolean(),
    preview: z.string().exactOptional(),
  }),
  event('text.delta', { text: z.string() }),
  event('progress', {
    percent: z.number().min(0).max(100),
    message: z.string().exactOptional(),
    etaMs: duration.exactOptional(),
    etaLowMs: duration.exactOptional(),
    etaHighMs: duration.exactOptional(),
    guess: z.boolean().exactOptional(),
    plan: z.number().int().positive().exactOptional(),
  }),
  event('intermediate.result', { content: z.string() }),
  event('run.finished', {
    durationMs: duration,
    tokenCount: count.exactOptional(),
    outcome: z.enum(['completed', 'limit']),
    summary: z.string().exactOptional(),
    stopReason: z.enum(STOP_REASONS as [StopReason, ...StopReason[]]).exactOptional(),
  }),
  event('run.error', { error: z.string() }),
  event('run.cancelled', { reason: z.string().exactOptional() }),
  event('iteration', { index: count, max: z.number().int().positive() }),
  event('limit.approaching', { limit: limitKind, used: z.number().nonnegative(), max: z.number().nonnegative() }),
  event('limit.reached', { limit: limitKind, used: z.number().nonnegative(), max: z.number().nonnegative() }),
  event('wind-down.started', { reason: z.string(), graceIterations: count }),
  event('timeout.extended', { byMs: duration, totalBudgetMs: duration }),
  event('checkpoint.saved', { checkpointId: z.string().min(1), iteration: count }),
  event('report.generated', { report: progressReportSchema }),
  event('tool.flagged', { toolName: z.string(), toolCallId: z.string().exactOptional(), findings: z.array(z.string()) }),
  event('strategy.rotated', { toolName: z.string(), failures: z.number().int().positive() }),
  event('plan.updated', { items: planItemsSchema }),
  event('stall.detected', {
    kind: stallKind,
    evidence: z.object({
      toolCallIds: z.array(z.string()).max(MAX_STALL_EVIDENCE_IDS),
      subject: z.string(),
      repeats: z.number().int().positive(),
    }),
    since: count,
  }),
  event('stall.cleared', { kind: stallKind, since: count }),
]);

/**
 * zod schema of {@link ProgressEvent}. Unknown keys are dropped; an unknown `type` is an error.
 */
export const progressEventSchema: z.ZodType<ProgressEvent> = eventSchemas;
