import sliceAnsi from 'slice-ansi';
import { columnWidth } from './column-width.js';

/**
 * Cuts a line (ANSI styles allowed) to at most `width` terminal columns, ending a cut line
 * with `…`. Wide characters count as two columns, so the block never wraps.
 */
export function fitLine(line: string, width: number): string {
  if (width <= 0) return '';
  if (columnWidth(line) <= width) return line;
  if (width === 1) return '…';
  // A wide character straddling the cut may be kept whole by sliceAnsi; cut before it then.
  let end = width - 1;
  let head = sliceAnsi(line, 0, end);
  while (end > 0 && columnWidth(head) > width - 1) head = sliceAnsi(line, 0, --end);
  return `${head}…`;
}
