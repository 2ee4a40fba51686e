import type { TaskHistory } from '@headway/estimator';
import type { MaybePromise } from '../checkpoint/maybe-promise.js';
import type { ChatMessage, ToolSpec } from '../provider/provider.js';

/** What every hook of a {@link ContextPart} learns about the run. */
export interface ContextRunInfo {
  runId: string;
  sessionId: string;
  /** The user's input (the task). */
  task: string;
  /** The provider calls go to (the registry's choice; `undefined` when none is available). */
  provider: string | undefined;
  /** The configured model, when one is. */
  model: string | undefined;
  maxIterations: number;
  /** Aborts when the run is cancelled or stopped by a limit: pass it to anything that waits. */
  signal: AbortSignal;
}

/** What a part may hand the run before it starts. */
export interface ContextRunAdvice {
  /** Earlier runs of this kind of task: the estimator's prior on iterations and duration. */
  history?: TaskHistory;
}

/** What `beforeIteration` and `assembleContext` see of the iteration about to call the model. */
export interface ContextIteration extends ContextRunInfo {
  /** Zero-based iteration. */
  iteration: number;
  /**
   * Shows `message` as the run's progress message (e.g. "waiting 12 s for the rate limit");
   * the returned function puts the previous message back.
   */
  showProgress: (message: string) => () => void;
}

/** The context as it stands when a part's `assembleContext` runs (earlier parts' changes applied). */
export interface ContextAssembly extends ContextIteration {
  /** The run's conversation, system prompt first. */
  conversation: readonly ChatMessage[];
  /** Text added to the system prompt for this call only, by earlier parts. */
  system: readonly string[];
  /** The tools this call offers. */
  tools: readonly ToolSpec[];
}

/** What `assembleContext` may change; a field left out stays as it is. */
export interface ContextAssemblyResult {
  /**
   * The conversation from now on: replaces the run's conversation (and is checkpointed), e.g.
   * after older messages were consolidated into a summary.
   */
  conversation?: ChatMessage[];
  /** Text to add to the system prompt of this call only (e.g. a memory block). */
  system?: string;
  /** The tools this call offers, favoured first; only tools the call already offers are kept. */
  tools?: ToolSpec[];
}

/** How a run ended, for `afterRun`. */
export interface ContextRunOutcome extends ContextRunInfo {
  status: 'completed' | 'limit' | 'cancelled' | 'error';
  /** Provider calls made. */
  iterations: number;
  durationMs: number;
  /** The names of the tools called, in call order (from the run's tool-call log). */
  toolCalls: readonly string[];
  /** The final answer (or the rendered report of a run that stopped short). */
  text: string;
}

/**
 * One optional part of a run's context pipeline (a context window, a rate limiter, a memory):
 * the runtime calls its hooks in order, before the run, before each iteration, while assembling
 * each model call's context, and after the run. Every hook is optional. A part that throws or
 * rejects is reported once through `onInternalError` (where: `context.<name>.<hook>`) and left
 * out for the rest of that run; the run goes on as if the part were not there.
 *
 * @example
 * ```ts
 * const shortSystem: ContextPart = {
 *   name: 'clock',
 *   assembleContext: () => ({ system: `Today is ${new Date().toDateString()}.` }),
 * };
 * new AgentRuntime({ provider: 'scripted' }, { provider, context: [shortSystem] });
 * ```
 */
export interface ContextPart {
  /** Names the part in `onInternalError`'s `where`. */
  readonly name: string;
  beforeRun?(run: ContextRunInfo): MaybePromise<ContextRunAdvice | undefined>;
  beforeIteration?(info: ContextIteration): MaybePromise<void>;
  assembleContext?(assembly: ContextAssembly): MaybePromise<ContextAssemblyResult | undefined>;
  afterRun?(outcome: ContextRunOutcome): MaybePromise<void>;
}
