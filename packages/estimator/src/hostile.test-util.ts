// Hostile input for property tests of the estimator's parsers: the generators come from
// `@headway/protocol/testing`; what is the estimator's own is the markers its parsers look
// for (`_progress` JSON, fences, workflow YAML) and the shapes of its records.
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
    '"_progress"',
    '_progress',
    '{"_progress":',
    '{"_progress": {"percent": 50}',
    '"percent":',
    '50',
    '-1e309',
    'null',
    'NaN',
    '&a ',
    '*a',
    '!!',
    '|',
    '>',
    'call: workers/x',
    'weight: 5',
    'parallel:',
  ],
  repeat: [' ', 'a', '1', '{"a":', '[[', '"a', '{ "'],
  nesting: [
    ['{"a":', '}'],
    ['[', ']'],
    ['{', '}'],
    ['{"_progress":', '}'],
  ],
  shapes: [
    () => ({ _progress: throwingTraps(), runs: revokedProxy(), version: 1 }),
    (): unknown[] => Array.from({ length: 200_000 }, () => ({ roundtrips: 1, durationMs: 1 })),
  ],
});

/** A string built from hostile fragments and arbitrary text, short enough to run thousands. */
export const hostileFragmentString: typeof hostile.fragmentString = hostile.fragmentString;
/** Any of the hostile strings: fragments, one repeated to a large size, brackets nested thousands deep. */
export const hostileString: typeof hostile.string = hostile.string;
/** Values that are not what a parser expects, with the estimator's own shapes among them. */
export const hostileValue: typeof hostile.value = hostile.value;
/** A plausible shape with hostile holes. */
export const withHostileHoles: typeof hostile.withHoles = hostile.withHoles;

/** Runs code that may hang or crash in a child process, from this package's folder; `srcUrl` names its sources. */
const isolated: IsolatedRunner = createIsolatedRunner(import.meta.dirname);
export const runIsolated: IsolatedRunner['runIsolated'] = isolated.runIsolated;
export const srcUrl: IsolatedRunner['srcUrl'] = isolated.srcUrl;

export { HOSTILE_RUN, HOSTILE_TEST_TIMEOUT };
