import fc from 'fast-check';
import { EventEmitter } from 'node:events';

/** A writable that records every chunk; `isTTY`, `columns` and `rows` as a test sets them. */
export class RecordingStream extends EventEmitter {
  chunks: string[] = [];
  isTTY: boolean;
  columns: number | undefined;
  rows: number | undefined;
  writableLength = 0;

  constructor(options: { isTTY?: boolean; columns?: number; rows?: number } = {}) {
    super();
    this.isTTY = options.isTTY ?? false;
    this.columns = options.columns;
    this.rows = options.rows;
  }

  write(chunk: string): boolean {
    this.chunks.push(chunk);
    return true;
  }

  get text(): string {
    return this.chunks.join('');
  }
}

// eslint-disable-next-line no-control-regex -- ANSI sequences are what is removed
const ANSI = /\u001b\[[0-9;?]*[a-z]/gi;

/** `text` without ANSI escape sequences. */
export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

/**
 * Text as a run might send it: ASCII with every control character (ESC, BEL, CR, NUL …),
 * C1 controls, Unicode line separators, wide and astral characters. Cheaper to generate
 * than full `binary` strings and aimed at what matters to a terminal.
 */
export function untrustedText(maxLength = 16): fc.Arbitrary<string> {
  const unit = fc.oneof(
    fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 1 }),
    fc.constantFrom('\u009b', '\u0085', '\u2028', '\u2029', '字', '😀', 'é', '\u200b'),
  );
  return fc.string({ unit, maxLength });
}
