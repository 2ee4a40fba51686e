import {
  describeIssues,
  toValidationIssues,
  type Clock,
  type InternalErrorContext,
  type ModelUsage,
  type OnInternalError,
  type ProgressHub,
  type SinkLike,
} from '@headway/protocol';
import type { WeightedStep } from '@headway/estimator';
import { errorMessage } from '@headway/protocol/internal';
import { z } from 'zod';
import { OpenAIAgentsError } from './openai-agents-error.js';

/** Prices one model call: USD for `usage` tokens of `model` (for one, `PriceTable#cost` from `@headway/runtime`). Undefined means unknown. */
export type CostOf = (usage: ModelUsage, model: { model: string }) => number | undefined;

/**
 * A problem the run survived and the caller may want to show: a guardrail that tripped, a model
 * report that was not usable (the report was built from the tool-call log), a call whose cost
 * was unknown under a spend budget (it counted as the whole budget).
 */
export interface BridgeWarning {
  code: 'guardrail-tripped' | 'report-unusable' | 'cost-unknown';
  message: string;
}

/** Options of `withHeadway`. */
export interface WithHeadwayOptions {
  /** What the run is asked to do: shown by reporters and restated in the report. */
  task: string;
  /** `agentName` of `run.started` (default: the starting agent's name). */
  agentName?: string;
  /** The hub to emit into. Absent, one is created for `runId` with `sinks`. */
  hub?: ProgressHub;
  /** Sinks (functions, `handle(event)` objects, ProgressReporters) for the created hub. */
  sinks?: SinkLike[];
  /** Run id of the created hub (default a random UUID). */
  runId?: string;
  /** Session (conversation) id, passed on in `run.started`. */
  sessionId?: string;
  /** Model calls in all, the last of them the report call (default 20; at least 2). */
  maxIterations?: number;
  /** Time budget in ms: at the first turn boundary after it the model is asked for its report; `hardStopAfterMs` later the run is aborted. */
  timeBudgetMs?: number;
  /** Grace after `timeBudgetMs` before the hard stop (default 30 000 ms). */
  hardStopAfterMs?: number;
  /** Spend budget in USD, priced with `costOf`; a call it cannot price counts as the whole budget. */
  maxSpendUsd?: number;
  /** Prices each model call; required with `maxSpendUsd`, optional otherwise (adds `costUsd` to `step.finished`). */
  costOf?: CostOf;
  /** Weighted steps laid over the progress bar (an agent.json's `fallbackSteps`). */
  steps?: WeightedStep[];
  /** Cancels the run. */
  abortSignal?: AbortSignal;
  /** Time and timers (default protocol's `systemClock`, its timers unref'd); tests pass a `ManualClock`. */
  clock?: Clock;
  /** Called with every failure the bridge survived (a throwing `costOf`, a hub error). */
  onInternalError?: OnInternalError<OpenAIAgentsErrorContext>;
  /**
   * Reserved for headway's stall detector: when it ships, it plugs in here and is passed each
   * turn. Accepted and ignored until then.
   */
  stallDetector?: object;
}

/** Where a failure the bridge survived happened: `emit` (the hub threw) or `costOf` (it threw or returned a bad number). */
export interface OpenAIAgentsErrorContext extends InternalErrorContext {
  readonly where: 'emit' | 'costOf';
}

const isFunction = (v: unknown): boolean => typeof v === 'function';
const isObject = (v: unknown): boolean => typeof v === 'object' && v !== null;
const finite = z.number().refine(Number.isFinite, 'must be a finite number');

const schema = z
  .strictObject({
    task: z.string().min(1, 'must be a non-empty string').max(100_000),
    agentName: z.string().min(1).max(200).optional(),
    hub: z
      .custom<ProgressHub>((v) => isObject(v) && isFunction((v as { emit?: unknown }).emit), 'must be a progress hub (createProgressHub)')
      .optional(),
    sinks: z
      .array(
        z.custom<SinkLike>((v) => isFunction(v) || isObject(v), 'must be a function, an object with handle(event), or a ProgressReporter'),
      )
      .optional(),
    runId: z.string().min(1).max(200).optional(),
    sessionId: z.string().min(1).max(200).optional(),
    maxIterations: z.number().int('must be an integer').min(2, 'must be at least 2 (one working call and the report call)').optional(),
    timeBudgetMs: finite.pipe(z.number().positive('must be more than 0')).optional(),
    hardStopAfterMs: finite.pipe(z.number().nonnegative('must be 0 or more')).optional(),
    maxSpendUsd: finite.pipe(z.number().positive('must be more than 0')).optional(),
    costOf: z.custom<CostOf>(isFunction, 'must be a function (usage, model) => USD').optional(),
    steps: z.array(z.strictObject({ name: z.string().min(1), weight: finite.pipe(z.number().positive('must be more than 0')) })).optional(),
    abortSignal: z.custom<AbortSignal>((v) => v instanceof AbortSignal, 'must be an AbortSignal').optional(),
    clock: z
      .custom<Clock>(
        (v) => isObject(v) && ['now', 'setTimeout', 'clearTimeout'].every((k) => isFunction((v as Record<string, unknown>)[k])),
        'must have now(), setTimeout() and clearTimeout()',
      )
      .optional(),
    onInternalError: z.custom<OnInternalError<OpenAIAgentsErrorContext>>(isFunction, 'must be a function').optional(),
    stallDetector: z.custom<object>(isObject, 'must be an object').optional(),
  })
  .superRefine((o, ctx) => {
    if (o.maxSpendUsd !== undefined && o.costOf === undefined)
      ctx.addIssue({ code: 'custom', path: ['costOf'], message: 'is required with maxSpendUsd' });
    if (o.hub !== undefined && o.sinks !== undefined)
      ctx.addIssue({ code: 'custom', path: ['sinks'], message: 'cannot be given with hub: add them to the hub' });
  });

/**
 * Validates {@link WithHeadwayOptions}.
 *
 * @throws {OpenAIAgentsError} `OPENAI_AGENTS_INVALID_OPTIONS`, naming every offending field.
 */
export function parseOptions(input: unknown): WithHeadwayOptions {
  let result: ReturnType<typeof schema.safeParse>;
  try {
    result = schema.safeParse(input);
  } catch (error) {
    // A throwing getter or a revoked proxy: the options cannot be read at all.
    throw new OpenAIAgentsError(
      'OPENAI_AGENTS_INVALID_OPTIONS',
      `withHeadway: invalid options: (root): could not be read (${errorMessage(error)})`,
      {
        issues: [{ path: '', message: 'could not be read' }],
        cause: error,
      },
    );
  }
  if (result.success) return input as WithHeadwayOptions;
  const issues = toValidationIssues(result.error);
  throw new OpenAIAgentsError('OPENAI_AGENTS_INVALID_OPTIONS', `withHeadway: invalid options: ${describeIssues(issues)}`, { issues });
}
