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
import type { StallThresholds, WeightedStep } from '@headway/estimator';
import { errorMessage } from '@headway/protocol/internal';
import { z } from 'zod';
import { AiSdkError } from './ai-sdk-error.js';
import type { StallAction, StallInfo, StallPolicy } from './stall-watch.js';

/** Prices one model call: USD for `usage` tokens of `model` (`provider` and `modelId` from the AI SDK). */
export type CostOf = (usage: ModelUsage, model: { provider: string; modelId: string }) => number;

/** Options of {@link withHeadway}. */
export interface WithHeadwayOptions {
  /** What the run is asked to do: shown by reporters and restated in the report. */
  task: string;
  /** `agentName` of `run.started` (default `ai-sdk-agent`). */
  agentName?: string;
  /** The hub to emit into. Absent, one is created for `runId` with `sinks`. */
  hub?: ProgressHub;
  /** Sinks (functions, `handle(event)` objects, ProgressReporters) for the created hub. */
  sinks?: SinkLike[];
  /** Run id of the created hub (default a random UUID). */
  runId?: string;
  /** Session (conversation) id, passed on in `run.started`. */
  sessionId?: string;
  /** Working steps (model calls) before the model is asked for its report in one more step. */
  maxIterations?: number;
  /**
   * Time budget in ms. When it is used up at a step boundary the model gets one report step
   * (no tools); `hardStopAfterMs` later the call is aborted and the report is built from the log.
   */
  timeBudgetMs?: number;
  /** Grace after `timeBudgetMs` before the hard stop (default 30 000 ms). */
  hardStopAfterMs?: number;
  /**
   * Spend budget in USD, priced with `costOf`. At the budget no further model call is made. A
   * step whose cost is unknown (no usable token counts, or `costOf` threw or returned NaN,
   * Infinity or a negative number) counts as spending the rest of the budget, never as free:
   * the run stops there with a `cost-budget` report, and `onInternalError` says why.
   */
  maxSpendUsd?: number;
  /** Prices each model call; required with `maxSpendUsd`, optional otherwise (adds `costUsd` to `step.finished`). */
  costOf?: CostOf;
  /** Weighted steps laid over the progress bar (an agent.json's `fallbackSteps`). */
  steps?: WeightedStep[];
  /** Cancels the run; combine with the hard time stop in `settings.abortSignal`. */
  abortSignal?: AbortSignal;
  /** Time and timers (default protocol's `systemClock`, its timers unref'd); tests pass a `ManualClock`. */
  clock?: Clock;
  /**
   * Secrets in the events (tool results' `preview`, tool `args`: API keys, `DB_PASSWORD=…`,
   * bearer tokens, URL passwords, secret-named keys) are replaced with `[REDACTED]` where the
   * events are made; the model still gets every tool result whole. `false` turns this off, for
   * a trusted, local event stream only.
   */
  redact?: false;
  /**
   * What to do when the run looks stuck (the same call with the same result again and again, A-B-A-B,
   * the same text every step, no new result for many steps): `warn` (default) emits `stall.detected`
   * and freezes the bar; `nudge` also adds one message naming what repeated to the next step's
   * prompt, once per stall; `wind-down` ends the run like a limit, with the model's progress report
   * (stop reason `stalled`). A function chooses per stall; if it throws, `onInternalError` is told
   * (`where: 'stallPolicy'`) and the stall is treated as `warn`.
   */
  stallPolicy?: StallPolicy;
  /** Thresholds of stall detection; each absent one takes the estimator's default (`DEFAULT_STALL_THRESHOLDS`). */
  stall?: Partial<StallThresholds>;
  /** Tools that wait on something (a job's status): calling them again and again is never a loop. */
  pollTools?: string[];
  /** Called with every failure the bridge survived (a throwing `costOf`, a hub error, a throwing `stallPolicy`). */
  onInternalError?: OnInternalError<AiSdkErrorContext>;
}

/**
 * Where a failure the bridge survived happened: `emit` (the hub threw), `costOf` (it threw or
 * returned a bad number), `usage` (a step reported no usable token counts, so it could not be
 * priced) or `stallPolicy` (it threw or returned something other than an action).
 */
export interface AiSdkErrorContext extends InternalErrorContext {
  readonly where: 'emit' | 'costOf' | 'usage' | 'stallPolicy';
}

const isFunction = (v: unknown): boolean => typeof v === 'function';
const isObject = (v: unknown): boolean => typeof v === 'object' && v !== null;
const threshold = (min: number) =>
  z
    .number()
    .int('must be an integer')
    .min(min, `must be at least ${String(min)}`)
    .max(1000, 'must be at most 1000');
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
    onInternalError: z.custom<OnInternalError<AiSdkErrorContext>>(isFunction, 'must be a function').optional(),
    stallPolicy: z
      .union(
        [
          z.enum(['warn', 'nudge', 'wind-down']),
          z.custom<(info: StallInfo) => StallAction>(isFunction, 'must be "warn", "nudge", "wind-down" or a function'),
        ],
        'must be "warn", "nudge", "wind-down" or a function',
      )
      .optional(),
    stall: z
      .strictObject({
        repeatedCall: threshold(2).optional(),
        repeatedFailure: threshold(2).optional(),
        pingPongCycles: threshold(2).optional(),
        noProgressIterations: threshold(1).optional(),
        repeatedText: threshold(2).optional(),
      })
      .optional(),
    pollTools: z.array(z.string().min(1, 'must be a non-empty tool name').max(200)).max(1000).optional(),
    redact: z.literal(false, 'must be false (redaction is on unless turned off)').optional(),
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
 * @throws {AiSdkError} `AI_SDK_INVALID_OPTIONS`, naming every offending field.
 */
export function parseOptions(input: unknown): WithHeadwayOptions {
  let result: ReturnType<typeof schema.safeParse>;
  try {
    result = schema.safeParse(input);
  } catch (error) {
    // A throwing getter or a revoked proxy: the options cannot be read at all.
    throw new AiSdkError('AI_SDK_INVALID_OPTIONS', `withHeadway: invalid options: (root): could not be read (${errorMessage(error)})`, {
      issues: [{ path: '', message: 'could not be read' }],
      cause: error,
    });
  }
  if (result.success) return input as WithHeadwayOptions;
  const issues = toValidationIssues(result.error);
  throw new AiSdkError('AI_SDK_INVALID_OPTIONS', `withHeadway: invalid options: ${describeIssues(issues)}`, { issues });
}
