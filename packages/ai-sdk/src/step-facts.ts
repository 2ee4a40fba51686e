import type { ModelUsage } from '@headway/protocol';

/** What a finished AI SDK step tells about its model call (a structural subset of `StepResult`). */
export interface StepFacts {
  readonly stepNumber?: number;
  readonly text?: string;
  readonly reasoningText?: string | undefined;
  readonly finishReason?: string;
  readonly usage?: { readonly inputTokens?: number | undefined; readonly outputTokens?: number | undefined };
  readonly model?: { readonly provider: string; readonly modelId: string };
}

const count = (n: unknown): number => (typeof n === 'number' && Number.isFinite(n) && n >= 0 ? Math.floor(n) : 0);

/** The step's token counts as the protocol carries them (missing counts read as 0). */
export function usageOf(step: StepFacts): ModelUsage | undefined {
  const u = step.usage;
  if (u === undefined) return undefined;
  return { inputTokens: count(u.inputTokens), outputTokens: count(u.outputTokens) };
}

/** The AI SDK's finish reason in the protocol's spelling (`tool-calls` → `tool_calls`). */
export function finishReasonOf(step: StepFacts): string | undefined {
  return typeof step.finishReason === 'string' ? step.finishReason.replace(/-/g, '_') : undefined;
}
