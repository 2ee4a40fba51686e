/**
 * Longest text the live block keeps for one piece (the task, a label, a tool name, a notice,
 * the outcome), in UTF-16 code units. The block is redrawn many times a second and every
 * redraw measures and fits each line to the terminal, so what it keeps must not grow with
 * what a run sends: a 5 MB task would otherwise cost seconds per event.
 */
export const MAX_LIVE_TEXT = 1000;

/** `text` cut to `max` code units plus `…` when longer, never splitting a surrogate pair. */
export function capText(text: string, max: number = MAX_LIVE_TEXT): string {
  if (text.length <= max) return text;
  let end = max;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}
