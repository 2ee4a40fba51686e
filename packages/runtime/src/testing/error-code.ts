import { HeadwayError } from '@headway/protocol';

/**
 * The `code` of the `HeadwayError` that `fn` throws or rejects with, `undefined` when it
 * succeeds; any other error is rethrown.
 */
export async function errorCodeOf(fn: () => unknown): Promise<string | undefined> {
  try {
    await fn();
  } catch (error) {
    if (HeadwayError.isInstance(error)) return error.code;
    throw error;
  }
  return undefined;
}
