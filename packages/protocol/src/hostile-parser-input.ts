// Hostile input for the property tests of a text parser: the structure and Unicode pieces every
// parser meets, mixed with the parser's own markers. Part of the `@headway/protocol/testing` entry.
import type fc from 'fast-check';
import { fragmentTextArb, hostileTextArb, hostileThunkArb, withHostileHoles } from './hostile-arbitraries.js';

/** Pieces that open, close or confuse the structures any text parser looks for: JSON, fences, Markdown lists. */
const STRUCTURE_PIECES: readonly string[] = [
  '{',
  '}',
  '[',
  ']',
  '"',
  '\\',
  ':',
  ',',
  '`',
  '```',
  '```json\n',
  '~~~',
  '\n',
  '\r\n',
  ' ',
  '\t',
  '#',
  '## ',
  '## 1. ',
  '- ',
  '* ',
  '**',
];

/** Control characters, separators, BOM, lone surrogates, astral and right-to-left characters. */
const UNICODE_PIECES: readonly string[] = [
  '\u0000',
  '\u0007',
  '\u001b[2J',
  '\u2028',
  '\u2029',
  '\ufeff',
  '\ud800',
  '\udc00',
  '😀',
  'ß',
  '\u202e',
];

/** Options of {@link hostileParserInput}: what is the parser's own. */
export interface HostileParserInputOptions {
  /** The markers the parser looks for, mixed with the structure and Unicode pieces every parser meets. */
  markers: readonly string[];
  /** Units repeated to tens of thousands of characters. */
  repeat: readonly string[];
  /** Opening and closing pairs nested thousands deep. */
  nesting: readonly (readonly [open: string, close: string])[];
  /** Makers of the parser's own plausible-but-hostile records (e.g. a huge array of them). */
  shapes: readonly (() => unknown)[];
}

/** Generators of hostile input for one parser, made by {@link hostileParserInput}. */
export interface HostileParserInput {
  /** A string built from the pieces and arbitrary code units, short enough to run thousands. */
  fragmentString: fc.Arbitrary<string>;
  /** Any of the hostile strings: fragments, one piece repeated to a large size, pairs nested thousands deep. */
  string: fc.Arbitrary<string>;
  /** Values that are not what the parser expects, with its own `shapes` among them, as thunks. */
  value: fc.Arbitrary<() => unknown>;
  /** A plausible `shape` with hostile holes: sometimes one of `value`, sometimes a revoked proxy inside. */
  withHoles: (shape: fc.Arbitrary<unknown>) => fc.Arbitrary<() => unknown>;
}

/**
 * The hostile strings and values for the property tests of one text parser, from its own
 * markers and record shapes plus the pieces every parser meets.
 *
 * @example
 * ```ts
 * const hostile = hostileParserInput({ markers: ['"_progress"'], repeat: ['{"a":'], nesting: [['{', '}']], shapes: [] });
 * fc.assert(fc.property(hostile.string, (s) => { parseModelProgress(s); }), HOSTILE_PARSER_RUN_PARAMETERS);
 * ```
 */
export function hostileParserInput(options: HostileParserInputOptions): HostileParserInput {
  const pieces = [...STRUCTURE_PIECES, ...options.markers, ...UNICODE_PIECES];
  const string = hostileTextArb({ pieces, repeat: options.repeat, nesting: options.nesting });
  const value = hostileThunkArb({ text: string, shapes: options.shapes });
  return {
    fragmentString: fragmentTextArb(pieces),
    string,
    value,
    withHoles: (shape) => withHostileHoles(shape, value),
  };
}
