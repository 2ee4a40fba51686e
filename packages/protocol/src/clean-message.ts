/** How many characters of a progress message are kept. */
export const MAX_MESSAGE_CHARS = 200;

/**
 * A progress message (a tool's, an MCP server's) made safe for one line of a terminal: runs of
 * control characters become one space, spaces are folded, the ends trimmed, at most
 * {@link MAX_MESSAGE_CHARS} characters kept. Only the first four times that many are read, so
 * a huge message costs no more than a short one. `undefined` for a non-string or nothing left.
 */
export function cleanMessage(message: unknown): string | undefined {
  if (typeof message !== 'string') return undefined;
  const text = message
    .slice(0, MAX_MESSAGE_CHARS * 4)
    // eslint-disable-next-line no-control-regex -- stripping control characters is the point
    .replace(/[\u0000-\u001F\u007F-\u009F]+/gu, ' ')
    .replace(/ {2,}/gu, ' ')
    .trim();
  return text === '' ? undefined : text.slice(0, MAX_MESSAGE_CHARS);
}
