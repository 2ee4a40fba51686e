import type { CheckpointStore } from './checkpoint-store.js';
import { type MaybePromise, mapMaybe } from './maybe-promise.js';

/** Tool results longer than this many characters are stored apart from the conversation. */
export const LARGE_RESULT_THRESHOLD = 50_000;

/** Options of {@link externalizeLargeResult}. */
export interface ExternalizeOptions {
  /** Default {@link LARGE_RESULT_THRESHOLD}. */
  threshold?: number;
  /** Characters of the result kept in the conversation as a preview (default 2,000). */
  previewChars?: number;
}

/** A tool result as it goes into the conversation: itself, or a reference plus a preview. */
export interface ExternalizedResult {
  text: string;
  /** Set when the full text was stored: `store.getBlob(checkpointId, ref)` returns it. */
  ref?: string;
}

/**
 * Stores a tool result over the threshold once with the checkpoint and returns the text
 * the conversation carries instead: a reference, the full length and a preview. Results
 * at or under the threshold are returned unchanged, and nothing is stored.
 *
 * @example
 * ```ts
 * const { text, ref } = await externalizeLargeResult(store, 'cp-1', hugeOutput);
 * // text: '[tool result of 180000 characters stored as blob:sha256:…; first 2000 characters follow]\n…'
 * ```
 */
export function externalizeLargeResult(
  store: CheckpointStore,
  checkpointId: string,
  result: string,
  options: ExternalizeOptions = {},
): MaybePromise<ExternalizedResult> {
  const threshold = options.threshold ?? LARGE_RESULT_THRESHOLD;
  if (result.length <= threshold) return { text: result };
  const previewChars = Math.max(0, Math.min(options.previewChars ?? 2000, threshold));
  return mapMaybe(store.putBlob(checkpointId, result), (ref) => {
    let preview = result.slice(0, previewChars);
    // Never end the preview on half of a surrogate pair.
    const last = preview.charCodeAt(preview.length - 1);
    if (last >= 0xd800 && last <= 0xdbff) preview = preview.slice(0, -1);
    return {
      text: `[tool result of ${result.length} characters stored as ${ref}; first ${preview.length} characters follow]\n${preview}`,
      ref,
    };
  });
}
