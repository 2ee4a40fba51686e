/** Tool results longer than this many characters are cut before they reach the model. */
const MAX_TOOL_RESULT_CHARS = 200_000;

/** Result of {@link truncateToolResult}. */
export interface TruncatedText {
  text: string;
  truncated: boolean;
  /** Characters of the original that were left out. */
  omitted: number;
}

function safeCut(text: string, end: number): number {
  const code = text.charCodeAt(end - 1);
  return code >= 0xd800 && code <= 0xdbff ? end - 1 : end;
}

function safeStart(text: string, start: number): number {
  const code = text.charCodeAt(start);
  return code >= 0xdc00 && code <= 0xdfff ? start + 1 : start;
}

/**
 * Cuts text longer than `max` characters to its head and tail around a notice that tells
 * the model how much was left out; the result is never longer than `max`. Surrogate
 * pairs are never split.
 *
 * @example
 * ```ts
 * truncateToolResult('x'.repeat(300_000)).text.length <= 200_000; // true
 * ```
 */
export function truncateToolResult(text: string, max: number = MAX_TOOL_RESULT_CHARS): TruncatedText {
  if (text.length <= max) return { text, truncated: false, omitted: 0 };
  const notice = (omitted: number): string =>
    `\n\n[... ${omitted.toLocaleString('en-US')} of ${text.length.toLocaleString('en-US')} characters omitted: the result was too long. The start and the end are shown. Narrow the request (a range, a filter, a smaller page) to see the middle. ...]\n\n`;
  // The notice's length depends on the number it shows; size it for the worst case.
  const budget = Math.max(0, max - notice(text.length).length);
  const headLength = safeCut(text, Math.ceil(budget * 0.6));
  const tailStart = safeStart(text, text.length - (budget - headLength));
  const omitted = tailStart - headLength;
  return { text: text.slice(0, headLength) + notice(omitted) + text.slice(tailStart), truncated: true, omitted };
}
