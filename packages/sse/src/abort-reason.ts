/**
 * What an aborted browser subscription rejects with: the signal's reason when it is an Error, else
 * an `AbortError`. Protocol's `abortError` for the browser entry, which imports nothing from
 * protocol but `validate-lite`, to stay small.
 */
export function abortReason(signal: AbortSignal | undefined): Error {
  const reason: unknown = signal?.reason;
  if (reason instanceof Error) return reason;
  return new DOMException(typeof reason === 'string' ? reason : 'The subscription was aborted', 'AbortError');
}
