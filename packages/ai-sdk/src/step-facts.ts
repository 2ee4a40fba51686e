import type { ModelUsage } from '@headway/protocol';
import { isTokenCount } from '@headway/protocol/internal';

/** What a finished AI SDK step tells about its model call (a structural subset of `StepResult`). */
export interface StepFacts {
  readonly stepNumber?: number;
  readonly text?: string;
  readonly reasoningText?: string | undefined;
  readonly finishReason?: string;
  readonly usage?: { readonly inputTokens?: number | undefined; readonly outputTokens?: number | undefined };
  readonly model?: { readonly provider: string; readonly modelId: string };
}

/**
 * The step's token counts as the protocol carries them; `undefined` when the step reported no
 * usage or a count that is not a token count (missing, NaN, negative, fractional, infinite: the
 * rule of protocol's `tokenCountSchema`, which the runtime applies to provider answers too).
 * Such a step's cost is unknown, never read as 0.
 */
export function usageOf(step: StepFacts): ModelUsage | undefined {
  const u = step.usage;
  if (u === undefined) return undefined;
  const { inputTokens, outputTokens } = u;
  return isTokenCount(inputTokens) && isTokenCount(outputTokens) ? { inputTokens, outputTokens } : undefined;
}

/** The AI SDK's finish reason in the protocol's spelling (`tool-calls` → `tool_calls`). */
export function finishReasonOf(step: StepFacts): string | undefined {
  const reason = step.finishReason;
  if (typeof reason !== 'string') return undefined;
  // Once per step: most reasons (`stop`, `length`) have no dash to replace; no regex either way.
  return reason.includes('-') ? reason.replaceAll('-', '_') : reason;
}
