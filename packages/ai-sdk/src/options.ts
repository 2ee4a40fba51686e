import {
  type Clock,
  type InternalErrorContext,
  type ModelUsage,
  type OnInternalError,
  type ProgressHub,
  type SinkLike,
} from '@headway/protocol';
import type { StallThresholds, WeightedStep } from '@headway/estimator';
import { createBridgeOptionsParser, type BridgeOptions } from '@headway/runtime/bridge-kit';
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
   * Infinity or a negative number) follows headway's runtime's rule: it is left out of the spend
   * (never $0, never the whole budget), counted in the result's `unpricedCalls`, `onInternalError`
   * says why, and the result's `warnings` name each such model once.
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
const threshold = (min: number) =>
  z
    .number()
    .int('must be an integer')
    .min(min, `must be at least ${String(min)}`)
    .max(1000, 'must be at most 1000');

/**
 * The AI SDK bridge's fields on top of the kit's shared ones (`task`, `hub`, `sinks`, the limits,
 * `clock` …, validated by `@headway/runtime/bridge-kit` the way every bridge validates them). A
 * field here replaces the shared one of its name: this bridge prices a call with the AI SDK's
 * `provider` and `modelId`, and has its own stall detection instead of the reserved `stallDetector`.
 */
const ownFields = {
  costOf: z.custom<CostOf>(isFunction, 'must be a function (usage, model) => USD').optional(),
  onInternalError: z.custom<OnInternalError<AiSdkErrorContext>>(isFunction, 'must be a function').optional(),
  stallDetector: z.never('is not an option of @headway/ai-sdk: use stallPolicy and stall').optional(),
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
};

// Built once, at module load: it runs on every withHeadway call. The kit's parser is typed for
// its own options, whose `costOf` takes `{ model }`; this bridge's takes `{ provider, modelId }`.
const parse = createBridgeOptionsParser<BridgeOptions>(
  ownFields,
  (message, details) => new AiSdkError('AI_SDK_INVALID_OPTIONS', message, details),
);

/**
 * Validates {@link WithHeadwayOptions}.
 *
 * @throws {AiSdkError} `AI_SDK_INVALID_OPTIONS`, naming every offending field.
 */
export function parseOptions(input: unknown): WithHeadwayOptions {
  // The parser returns `input` itself once every field checked out.
  return parse(input) as unknown as WithHeadwayOptions;
}
