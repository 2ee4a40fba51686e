// The run state of one OpenAI Agents SDK run: headway's shared bridge core, with one model call
// as an iteration and its step. The bridge stops the working turns itself one call before the
// iteration limit, so the last call is left for the report.
import type { ModelUsage } from '@headway/protocol';
import { createBridgeRunCore, type BridgeRunCore } from '@headway/runtime/bridge-kit';
import { OpenAIAgentsError } from './openai-agents-error.js';
import type { WithHeadwayOptions } from './options.js';

export type { HeadwayOutcome, HeadwayRunResult } from '@headway/runtime/bridge-kit';

/** The step id of the model call in flight (one at a time). */
const MODEL_CALL = 'model-call';

/** Builds the run state for `o` (already validated). */
export function createRunCore(o: WithHeadwayOptions): BridgeRunCore {
  return createBridgeRunCore(o, {
    defaultAgentName: 'openai-agent',
    hardStopError: (message) => new OpenAIAgentsError('OPENAI_AGENTS_HARD_STOP', message),
    invalidCostError: (message) => new OpenAIAgentsError('OPENAI_AGENTS_INVALID_COST', message),
    stopBeforeLastIteration: true,
  });
}

/** A model call begins (a working one, or the report call when the stop is `asked`): an iteration and its step. */
export function modelCallStarted(core: BridgeRunCore, description: { provider?: string; model?: string }): void {
  core.iterationStarted();
  const name = `llm-${String(core.iterations)}`;
  core.stepStarted(MODEL_CALL, name, core.stop?.mode === 'asked' ? 'model call (no tools)' : 'model call', description);
}

/** The model call in flight ended (nothing happens when none is open). */
export function modelCallFinished(core: BridgeRunCore, usage: ModelUsage | undefined, model: string, finishReason?: string): void {
  if (core.finishStep(MODEL_CALL, usage, model, finishReason)) core.iterationFinished();
}

/** Whether a model call's step is open (started, not yet finished). */
export function modelCallOpen(core: BridgeRunCore): boolean {
  return core.isStepOpen(MODEL_CALL);
}
