// A terminal screen (tmux `capture-pane -e`: text with SGR colour sequences) drawn as an SVG, for
// the READMEs' picture of the demo's live bar. anser parses the sequences; this file only lays out
// the cells: one column per code point, which holds for what the CLI reporter draws (ASCII, box
// and braille characters, all one column wide).
import Anser from 'anser';

/** How the screen is drawn. */
export interface TerminalSvgOptions {
  /** Columns of the terminal the screen was captured from: the picture's width. */
  columns: number;
  /** The window title, and the SVG's `<title>`. */
  title: string;
}

interface Cell {
  text: string;
  fg: string | undefined;
  bg: string | undefined;
  bold: boolean;
  dim: boolean;
}

const CHAR_WIDTH = 8.4;
const LINE_HEIGHT = 19;
const FONT_SIZE = 14;
const PAD = 14;
const TITLE_BAR = 28;
const FOREGROUND = 'rgb(220,223,228)';
const BACKGROUND = 'rgb(30,32,36)';

/** One column per code point (see the top of the file). */
function columnsOf(text: string): number {
  return Array.from(text).length;
}

function escapeXml(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex -- a capture may hold stray control bytes; XML forbids them
      .replace(/[\u0000-\u0008\v\f\u000e-\u001f\u007f]/g, '')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
  );
}

/** The screen's plain text: what the picture shows, without its colours (trailing blanks cut). */
export function screenText(capture: string): string {
  return linesOf(capture)
    .map((line) => line.map((c) => c.text).join(''))
    .join('\n');
}

function linesOf(capture: string): Cell[][] {
  const lines: Cell[][] = [[]];
  for (const entry of Anser.ansiToJson(capture, { json: true, remove_empty: true })) {
    // anser's types say string; an unset colour is null at run time.
    const colour = (value: string | null): string | undefined =>
      value === null || value === '' ? undefined : `rgb(${value.replace(/\s/g, '')})`;
    const style = {
      fg: colour(entry.fg),
      bg: colour(entry.bg),
      bold: entry.decorations.includes('bold'),
      dim: entry.decorations.includes('dim'),
    };
    entry.content.split('\n').forEach((part, i) => {
      if (i > 0) lines.push([]);
      if (part !== '') lines.at(-1)?.push({ text: part, ...style });
    });
  }
  // Blank lines at the end of the pane are not part of the picture.
  const trimmed = lines.map((line) => {
    const out = [...line];
    while (out.length > 0 && out.at(-1)?.text.trimEnd() === '' && out.at(-1)?.bg === undefined) out.pop();
    const last = out.at(-1);
    if (last !== undefined && last.bg === undefined) out[out.length - 1] = { ...last, text: last.text.trimEnd() };
    return out;
  });
  while (trimmed.length > 0 && trimmed.at(-1)?.length === 0) trimmed.pop();
  return trimmed;
}

/**
 * Draws a captured terminal screen as an SVG: a window with its title, each cell at its column,
 * SGR colours, bold and dim kept. The screen's plain text goes in `<desc>`, for screen readers and
 * for comparing two pictures by what they say.
 */
export function renderTerminalSvg(capture: string, options: TerminalSvgOptions): string {
  const lines = linesOf(capture);
  const width = Math.ceil(PAD * 2 + options.columns * CHAR_WIDTH);
  const height = Math.ceil(TITLE_BAR + PAD * 2 + lines.length * LINE_HEIGHT);
  const x = (column: number): string => (PAD + column * CHAR_WIDTH).toFixed(1);
  const rows = lines.map((line, row) => {
    const y = TITLE_BAR + PAD + (row + 1) * LINE_HEIGHT - 5;
    let column = 0;
    const parts: string[] = [];
    for (const cell of line) {
      const cells = columnsOf(cell.text);
      if (cell.bg !== undefined)
        parts.push(
          `<rect x="${x(column)}" y="${y - LINE_HEIGHT + 5}" width="${(cells * CHAR_WIDTH).toFixed(1)}" height="${LINE_HEIGHT}" fill="${cell.bg}"/>`,
        );
      // Blanks only move the column: a viewer may collapse them, and stretching them would squeeze the text.
      const core = cell.text.trim();
      if (core !== '') {
        const start = column + (cell.text.length - cell.text.trimStart().length);
        // The cell grid holds whatever font the viewer has: each run is stretched to its columns.
        const attrs = [
          `x="${x(start)}"`,
          `y="${y}"`,
          `textLength="${(columnsOf(core) * CHAR_WIDTH).toFixed(1)}"`,
          'lengthAdjust="spacingAndGlyphs"',
          cell.fg === undefined ? '' : `fill="${cell.fg}"`,
          cell.bold ? 'font-weight="bold"' : '',
          cell.dim ? 'opacity="0.6"' : '',
        ].filter((a) => a !== '');
        parts.push(`<text ${attrs.join(' ')}>${escapeXml(core)}</text>`);
      }
      column += cells;
    }
    return parts.join('');
  });
  const dots = ['rgb(255,95,86)', 'rgb(255,189,46)', 'rgb(39,201,63)']
    .map((fill, i) => `<circle cx="${PAD + 6 + i * 20}" cy="${TITLE_BAR / 2 + 2}" r="6" fill="${fill}"/>`)
    .join('');
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img">`,
    `<title>${escapeXml(options.title)}</title>`,
    `<desc>${escapeXml(screenText(capture))}</desc>`,
    `<rect width="${width}" height="${height}" rx="8" fill="${BACKGROUND}"/>`,
    dots,
    `<text x="${width / 2}" y="${TITLE_BAR / 2 + 7}" fill="rgb(150,150,150)" font-family="sans-serif" font-size="13" text-anchor="middle">${escapeXml(options.title)}</text>`,
    `<g font-family="ui-monospace,SFMono-Regular,Menlo,Consolas,'DejaVu Sans Mono',monospace" font-size="${FONT_SIZE}" fill="${FOREGROUND}" xml:space="preserve" style="white-space:pre">`,
    ...rows.filter((r) => r !== ''),
    '</g>',
    '</svg>',
    '',
  ].join('\n');
}
