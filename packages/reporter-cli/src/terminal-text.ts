// Text from a run (task, tool names, previews, errors, model-written reports) is untrusted:
// an escape sequence in it could move the cursor, recolour or retitle the user's terminal.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
const LINE_BREAKS = /\r\n|[\r\n\t\u2028\u2029]/g;
/** Any character either replacement above changes (`\t`, `\n`, `\r` are among the control characters). */
// eslint-disable-next-line no-control-regex -- see CONTROL
const NEEDS_CHANGE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/**
 * One line of text that is safe to print: line breaks and tabs become spaces, other control
 * characters (ESC included) become `�`. Printable text is left exactly as it is.
 */
export function oneLine(text: string): string {
  // One scan for the common case, text with nothing to replace (most tool names and previews).
  // Anything but a string (from an untyped caller) still fails in `replace`, as it always did.
  if (typeof text === 'string' && !NEEDS_CHANGE.test(text)) return text;
  return text.replace(LINE_BREAKS, ' ').replace(CONTROL, '\uFFFD');
}

/** Like {@link oneLine} but keeps line breaks (normalised to `\n`); tabs become spaces. */
export function safeLines(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[\t\u2028\u2029]/g, (c) => (c === '\t' ? ' ' : '\n'))
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '\uFFFD'); // eslint-disable-line no-control-regex -- see CONTROL
}
