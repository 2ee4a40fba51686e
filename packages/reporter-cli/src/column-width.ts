import stringWidth from 'string-width';

// eslint-disable-next-line no-control-regex -- ANSI CSI sequences (colours) take no columns
const CSI = /\u001b\[[0-9;?]*[\x20-\x2f]*[\x40-\x7e]/g;
// One column per UTF-16 unit: printable ASCII and Latin, box drawing, blocks, braille and
// the marks the live block uses. No combining or wide characters, no surrogates.
const NARROW = /^[\u0020-\u007e\u00a0-\u00ac\u00ae-\u02ff\u2026\u2139\u2500-\u259f\u26a0\u2713\u2714\u2716\u2717\u2800-\u28ff]*$/;

/**
 * Terminal columns of a line (ANSI styles allowed). Lines of the live block are measured
 * several times a frame; string-width segments graphemes for anything beyond ASCII, which
 * is costly, so the characters the block is made of are counted directly.
 */
export function columnWidth(text: string): number {
  const visible = text.includes('\u001b') ? text.replace(CSI, '') : text;
  return NARROW.test(visible) ? visible.length : stringWidth(text);
}
