/**
 * The signal a bridge hands the framework's loop: none unless something can fire it. Frameworks
 * (LangGraph, the OpenAI Agents SDK) watch a given signal at every step, which costs more than the
 * rest of a bridge, so a run that nothing can cancel gets none.
 *
 * @param own The bridge's own signal: the caller's `abortSignal` joined with the time budget's hard stop.
 * @param ownCanFire Whether `own` can fire at all (an `abortSignal` or a time budget was given).
 * @param callerSignal A signal the caller put in the framework's own options (read without trusting it).
 * @returns The one signal to pass, both joined with `AbortSignal.any`, or undefined for none.
 * @example
 * ```ts
 * const signal = bridgeSignal(core.signal, options.abortSignal !== undefined || options.timeBudgetMs !== undefined, config.signal);
 * ```
 */
export function bridgeSignal(own: AbortSignal, ownCanFire: boolean, callerSignal?: unknown): AbortSignal | undefined {
  const signals: AbortSignal[] = [];
  if (callerSignal instanceof AbortSignal) signals.push(callerSignal);
  if (ownCanFire) signals.push(own);
  const [first] = signals;
  if (first === undefined) return undefined;
  return signals.length === 1 ? first : AbortSignal.any(signals);
}
