// Hostile input for property tests of the report parsers: the generators come from
// `@headway/protocol/testing`; what is the report's own is the Markdown markers its parsers
// look for and the shapes of its records.
import {
  HOSTILE_PARSER_RUN_PARAMETERS,
  HOSTILE_TEST_TIMEOUT,
  createIsolatedRunner,
  fragmentTextArb,
  hostileTextArb,
  hostileThunkArb,
  revokedProxy,
  throwingTraps,
  withHostileHoles as withHoles,
  type IsolatedRunner,
} from '@headway/protocol/testing';
import type fc from 'fast-check';

/** Pieces that open, close or confuse the structures the parsers look for. */
const FRAGMENTS = [
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
  '# ',
  '### ',
  '**Stats:** ',
  '**Key Findings:**',
  'Findings:',
  '1. ',
  '2) ',
  '- [x] ',
  '~~',
  '___none',
  '(done)',
  '— done',
  'Step 3: ',
  '30 iterations',
  'iterations: ',
  '1,034',
  '-0',
  '1e6',
  'ms elapsed',
  'elapsed',
  ' · ',
  '$',
  'cost',
  'stopped: ',
  'written by: model',
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

/** A string built from hostile fragments and arbitrary text, short enough to run thousands. */
export const hostileFragmentString: fc.Arbitrary<string> = fragmentTextArb(FRAGMENTS);

/** Any of the hostile strings: fragments, one repeated to a large size, brackets nested thousands deep. */
const hostileString: fc.Arbitrary<string> = hostileTextArb({
  pieces: FRAGMENTS,
  repeat: [' ', 'a', '1', '1 ', '-', '# a ', '**', '- - '],
  nesting: [
    ['> ', ''],
    ['  - ', ''],
    ['**', '**'],
    ['[', ']'],
    ['~~', '~~'],
  ],
});

/** Values that are not what a parser expects, with the report's own shapes among them. */
export const hostileValue: fc.Arbitrary<() => unknown> = hostileThunkArb({
  text: hostileString,
  shapes: [
    () => ({ version: 1, head: throwingTraps(), recent: revokedProxy() }),
    (): unknown[] => Array.from({ length: 200_000 }, () => ({ kind: 'text', step: 1, text: 'x' })),
  ],
});

/** A plausible shape with hostile holes: sometimes one of {@link hostileValue}, sometimes a revoked proxy inside. */
export function withHostileHoles(shape: fc.Arbitrary<unknown>): fc.Arbitrary<() => unknown> {
  return withHoles(shape, hostileValue);
}

/** Settings every hostile property runs with (protocol's, for parsers of large hostile text). */
export const HOSTILE_RUN: typeof HOSTILE_PARSER_RUN_PARAMETERS = HOSTILE_PARSER_RUN_PARAMETERS;

/** Runs code that may hang or crash in a child process, from this package's folder; `srcUrl` names its sources. */
const isolated: IsolatedRunner = createIsolatedRunner(import.meta.dirname);
export const runIsolated: IsolatedRunner['runIsolated'] = isolated.runIsolated;
export const srcUrl: IsolatedRunner['srcUrl'] = isolated.srcUrl;

export { HOSTILE_TEST_TIMEOUT };
