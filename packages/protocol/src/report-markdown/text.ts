const ELLIPSIS = '…';

/** Whether `ch` is one whitespace character (what `\s` matches). */
export function isSpace(ch: string | undefined): boolean {
  return ch?.length === 1 && ch.trim() === '';
}

/**
 * Cuts `text` to at most `max` characters, the last being `…` when anything was cut.
 * Never leaves half of a surrogate pair at the cut.
 */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 0) return '';
  let head = text.slice(0, max - 1);
  const last = head.charCodeAt(head.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) head = head.slice(0, -1);
  return `${head}${ELLIPSIS}`;
}

/**
 * A copy of `text` that shares no memory with the string it was cut from.
 * V8 represents a long `slice` as a view of its parent, so a 500-character brief of a
 * 5 MB tool result would otherwise keep all 5 MB alive for the whole run.
 */
export function detach(text: string): string {
  // Slicing a cons string makes V8 flatten it into a fresh copy first, so the result's
  // parent is that copy (one character longer), not the original. Measured by the bench.
  return text.length < 13 ? text : ` ${text}`.slice(1);
}

/** Whitespace runs (newlines included) collapsed to one space, trimmed. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

const numberFormat = new Intl.NumberFormat('en-US');

/** `12,345`: counts as a person reads them. */
export function formatCount(n: number): string {
  // Counts under 1,000 read as they print (what Intl writes for them), without Intl's cost:
  // every stall line names a repeat count.
  if (Number.isInteger(n) && n >= 0 && n < 1000 && !Object.is(n, -0)) return String(n);
  return numberFormat.format(n);
}

/**
 * A duration as a person reads it: `850ms`, `1.2s`, `42s`, `4m 05s`, `1h 02m` (tenths only under
 * 10 s; minutes and seconds padded so a live view does not jitter). Negative or non-finite input
 * reads `0ms`. The one format of headway's terminal lines, reports and prompts.
 */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '0ms';
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 10_000) return `${(Math.floor(ms / 100) / 10).toFixed(1)}s`;
  const totalSeconds = Math.floor(ms / 1000);
  if (totalSeconds < 60) return `${totalSeconds}s`;
  const totalMinutes = Math.floor(totalSeconds / 60);
  if (totalMinutes < 60) return `${totalMinutes}m ${pad(totalSeconds % 60)}s`;
  return `${Math.floor(totalMinutes / 60)}h ${pad(totalMinutes % 60)}m`;
}

function pad(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}
