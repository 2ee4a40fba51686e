// The options every bridge (`@headway/openai-agents`, `@headway/langgraph`, …) shares, and their
// validation: each bridge adds its own fields to the shared shape and gets one parser that names
// every invalid field in its own typed error.
import {
  describeIssues,
  toValidationIssues,
  type Clock,
  type InternalErrorContext,
  type ModelUsage,
  type OnInternalError,
  type ProgressHub,
  type SinkLike,
  type ValidationIssue,
} from '@headway/protocol';
import type { WeightedStep } from '@headway/estimator';
import { errorMessage } from '@headway/protocol/internal';
import { z } from 'zod';

/** Prices one model call: USD for `usage` tokens of `model` (for one, `PriceTable#cost` from `@headway/runtime`). Undefined means unknown. */
export type CostOf = (usage: ModelUsage, model: { model: string }) => number | undefined;

/**
 * A problem a bridged run survived and the caller may want to show: a guardrail that tripped, a
 * model report that was not usable (the report was built from the tool-call log), a model whose
 * calls `costOf` could not price under a spend budget (`cost-unknown`, once per model: its calls
 * are not counted against the budget, as in headway's runtime), a plan that did not validate (it
 * was not used).
 */
export interface BridgeWarning {
  code: 'guardrail-tripped' | 'report-unusable' | 'cost-unknown' | 'plan-invalid';
  message: string;
}

/** Where a failure a bridge survived happened: `emit` (the hub threw) or `costOf` (it threw or returned a bad number). */
export interface BridgeErrorContext extends InternalErrorContext {
  readonly where: 'emit' | 'costOf';
}

/** The options every bridge's `withHeadway` takes (each bridge adds its own). */
export interface BridgeOptions {
  /** What the run is asked to do: shown by reporters and restated in the report. */
  task: string;
  /** `agentName` of `run.started` (default: the framework agent's own name). */
  agentName?: string;
  /** The hub to emit into. Absent, one is created for `runId` with `sinks`. */
  hub?: ProgressHub;
  /** Sinks (functions, `handle(event)` objects, ProgressReporters) for the created hub. */
  sinks?: SinkLike[];
  /** Run id of the created hub (default a random UUID). */
  runId?: string;
  /** Session (conversation) id, passed on in `run.started`. */
  sessionId?: string;
  /** Iterations before the run stops with its report (default 20). */
  maxIterations?: number;
  /** Time budget in ms: at the first turn boundary after it the model is asked for its report; `hardStopAfterMs` later the run is aborted. */
  timeBudgetMs?: number;
  /** Grace after `timeBudgetMs` before the hard stop (default 30 000 ms). */
  hardStopAfterMs?: number;
  /**
   * Spend budget in USD, priced with `costOf`. A call it cannot price is left out of the spend and
   * counted in the result's `unpricedCalls` (the runtime's rule: never $0, never the whole budget),
   * with one `cost-unknown` warning per model.
   */
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
  onInternalError?: OnInternalError<BridgeErrorContext>;
  /**
   * Reserved for headway's stall detector: when it ships, it plugs in here and is passed each
   * turn. Accepted and ignored until then.
   */
  stallDetector?: object;
}

/** Builds a bridge's typed error for invalid options: its message and every issue. */
export type InvalidOptionsError = (message: string, details: { issues: ValidationIssue[]; cause?: unknown }) => Error;

const isFunction = (v: unknown): boolean => typeof v === 'function';
const isObject = (v: unknown): boolean => typeof v === 'object' && v !== null;
const finite = z.number().refine(Number.isFinite, 'must be a finite number');

/** Zod's check that a value has a method `name`, for a bridge's own function-valued options. */
export function hasMethod<T>(name: string, message: string): z.ZodType<T> {
  return z.custom<T>((v) => isObject(v) && isFunction((v as Record<string, unknown>)[name]), message);
}

const sharedShape = {
  task: z.string().min(1, 'must be a non-empty string').max(100_000),
  agentName: z.string().min(1).max(200).optional(),
  hub: hasMethod<ProgressHub>('emit', 'must be a progress hub (createProgressHub)').optional(),
  sinks: z
    .array(
      z.custom<SinkLike>((v) => isFunction(v) || isObject(v), 'must be a function, an object with handle(event), or a ProgressReporter'),
    )
    .optional(),
  runId: z.string().min(1).max(200).optional(),
  sessionId: z.string().min(1).max(200).optional(),
  maxIterations: z.number().int('must be an integer').positive('must be at least 1').optional(),
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
  onInternalError: z.custom<OnInternalError<BridgeErrorContext>>(isFunction, 'must be a function').optional(),
  stallDetector: z.custom<object>(isObject, 'must be an object').optional(),
};

/**
 * Builds the validator of a bridge's `withHeadway` options: the shared {@link BridgeOptions}
 * fields plus `extra` (a field in `extra` replaces the shared one of its name). Build it once, at
 * module load: it is called on every run.
 *
 * @param extra The bridge's own fields, as a zod shape.
 * @param invalid Makes the bridge's typed error (its `…_INVALID_OPTIONS` code).
 * @returns A parser that returns the options as given, or throws `invalid(…)` naming every offending field.
 * @example
 * ```ts
 * const parseOptions = createBridgeOptionsParser<WithHeadwayOptions>({ planKey: z.string().optional() }, (message, details) =>
 *   new LangGraphError('LANGGRAPH_INVALID_OPTIONS', message, details),
 * );
 * ```
 */
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- T names the bridge's own options type, which the parser returns once validated
export function createBridgeOptionsParser<T extends BridgeOptions>(
  extra: z.ZodRawShape,
  invalid: InvalidOptionsError,
): (input: unknown) => T {
  const schema = z.strictObject({ ...sharedShape, ...extra }).superRefine((o, ctx) => {
    if (o.maxSpendUsd !== undefined && o.costOf === undefined)
      ctx.addIssue({ code: 'custom', path: ['costOf'], message: 'is required with maxSpendUsd' });
    if (o.hub !== undefined && o.sinks !== undefined)
      ctx.addIssue({ code: 'custom', path: ['sinks'], message: 'cannot be given with hub: add them to the hub' });
  });
  return (input) => {
    let result: ReturnType<typeof schema.safeParse>;
    try {
      result = schema.safeParse(input);
    } catch (error) {
      // A throwing getter or a revoked proxy: the options cannot be read at all.
      throw invalid(`withHeadway: invalid options: (root): could not be read (${errorMessage(error)})`, {
        issues: [{ path: '', message: 'could not be read' }],
        cause: error,
      });
    }
    if (result.success) return input as T;
    const issues = toValidationIssues(result.error);
    throw invalid(`withHeadway: invalid options: ${describeIssues(issues)}`, { issues });
  };
}
