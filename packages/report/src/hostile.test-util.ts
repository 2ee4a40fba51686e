// Hostile input for property tests of the report parsers: the generators come from
// `@headway/protocol/testing`; what is the report's own is the Markdown markers its parsers
// look for and the shapes of its records.
import {
  HOSTILE_PARSER_RUN_PARAMETERS as HOSTILE_RUN,
  HOSTILE_TEST_TIMEOUT,
  hostileParserInput,
  revokedProxy,
  throwingTraps,
  type HostileParserInput,
} from '@headway/protocol/testing';
import { createIsolatedRunner, type IsolatedRunner } from '@headway/test-utils';

const hostile: HostileParserInput = hostileParserInput({
  markers: [
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
  ],
  repeat: [' ', 'a', '1', '1 ', '-', '# a ', '**', '- - '],
  nesting: [
    ['> ', ''],
    ['  - ', ''],
    ['**', '**'],
    ['[', ']'],
    ['~~', '~~'],
  ],
  shapes: [
    () => ({ version: 1, head: throwingTraps(), recent: revokedProxy() }),
    (): unknown[] => Array.from({ length: 200_000 }, () => ({ kind: 'text', iteration: 1, text: 'x' })),
  ],
});

/** A string built from hostile fragments and arbitrary text, short enough to run thousands. */
export const hostileFragmentString: typeof hostile.fragmentString = hostile.fragmentString;
/** Values that are not what a parser expects, with the report's own shapes among them. */
export const hostileValue: typeof hostile.value = hostile.value;
/** A plausible shape with hostile holes. */
export const withHostileHoles: typeof hostile.withHoles = hostile.withHoles;

/** Runs code that may hang or crash in a child process, from this package's folder; `srcUrl` names its sources. */
const isolated: IsolatedRunner = createIsolatedRunner(import.meta.dirname);
export const runIsolated: IsolatedRunner['runIsolated'] = isolated.runIsolated;
export const srcUrl: IsolatedRunner['srcUrl'] = isolated.srcUrl;

export { HOSTILE_RUN, HOSTILE_TEST_TIMEOUT };
