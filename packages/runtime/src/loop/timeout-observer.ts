import { z } from 'zod';
import type { ChatMessage } from '../provider/provider.js';
import type { ProviderRegistry } from '../provider/provider-registry.js';

/** What an `onTimeout` observer is told when the time budget runs out. */
export interface TimeoutRequest {
  /** Time since the run started. */
  elapsedMs: number;
  /** The configured budget. */
  budgetMs: number;
  /** Extensions granted so far. */
  extendedMs: number;
  /** Extension time still grantable (`negotiatedTimeoutBudgetMs` minus `extendedMs`). */
  remainingMs: number;
  /** The largest single extension (`negotiatedExtensionMs`). */
  chunkMs: number;
  /** Rounds completed. */
  iteration: number;
  /** The user's task. */
  task: string;
  /** Aborts when the run ends before the observer answers. */
  signal: AbortSignal;
}

/**
 * Decides whether a run that used up its time budget gets more: the milliseconds to add
 * (capped at `chunkMs` and `remainingMs`), `true` for one full chunk, or `0`/`false` to
 * decline, which starts the graceful wind-down.
 */
export type TimeoutObserver = (request: TimeoutRequest) => number | boolean | Promise<number | boolean>;

const answerSchema = z.object({ extendMs: z.number().nonnegative() });

/**
 * An observer that asks the model itself whether it needs more time (one extra provider
 * call, no tools). The reply must contain JSON `{"extendMs": n}`; anything else declines.
 */
export function modelTimeoutObserver(registry: ProviderRegistry, messages: () => readonly ChatMessage[], model?: string): TimeoutObserver {
  return async (request) => {
    const prompt = [
      `The time budget of this task (${Math.round(request.budgetMs / 1000)} s) is used up after ${request.iteration} iteration(s).`,
      `You may ask for up to ${Math.round(Math.min(request.chunkMs, request.remainingMs) / 1000)} s more if you are close to finishing and the extra time will clearly pay off; otherwise ask for none and you will be asked to write a progress report.`,
      'Reply with JSON only: {"extendMs": <milliseconds, 0 for none>, "reason": "<one line>"}',
    ].join('\n');
    const response = await registry.complete(
      { messages: [...messages(), { role: 'user', content: prompt }], tools: [], ...(model === undefined ? {} : { model }) },
      { signal: request.signal },
    );
    // From the first `{` to the last `}`: two index scans, linear in the reply.
    const open = response.content.indexOf('{');
    const close = response.content.lastIndexOf('}');
    if (open === -1 || close < open) return 0;
    let value: unknown;
    try {
      value = JSON.parse(response.content.slice(open, close + 1));
    } catch {
      return 0;
    }
    const parsed = answerSchema.safeParse(value);
    return parsed.success ? parsed.data.extendMs : 0;
  };
}
