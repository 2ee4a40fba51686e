import sliceAnsi from 'slice-ansi';
import stringWidth from 'string-width';

/**
 * Cuts a line (ANSI styles allowed) to at most `width` terminal columns, ending a cut line
 * with `…`. Wide characters count as two columns, so the block never wraps.
 */
export function fitLine(line: string, width: number): string {
  if (width <= 0) return '';
  if (stringWidth(line) <= width) return line;
  if (width === 1) return '…';
  return `${sliceAnsi(line, 0, width - 1)}…`;
}
