import type { ProgressReport, StopReason } from '../progress-report.js';

/** The list fields of a {@link ProgressReport}, in the order the report shows them. */
export type ReportListKey = 'completedWork' | 'keyFindings' | 'attemptedInconclusive' | 'remaining' | 'suggestedNextSteps';

/** Every section of a report, `task` first. */
export type ReportSectionKey = 'task' | ReportListKey;

/** Headings of the six sections, in order. */
export const SECTION_TITLES: Readonly<Record<ReportSectionKey, string>> = {
  task: 'Task',
  completedWork: 'Completed Work',
  keyFindings: 'Key Findings',
  attemptedInconclusive: 'Attempted but Inconclusive',
  remaining: 'Not Started / Remaining',
  suggestedNextSteps: 'Suggested Next Steps',
};

/** The five list sections in report order. */
export const LIST_KEYS: readonly ReportListKey[] = [
  'completedWork',
  'keyFindings',
  'attemptedInconclusive',
  'remaining',
  'suggestedNextSteps',
];

/** What each stop reason means, as a clause: `the iteration limit was reached`. */
export const STOP_REASON_TEXT: Readonly<Record<StopReason, string>> = {
  'max-iterations': 'the iteration limit was reached',
  'time-budget': 'the time budget ran out',
  'negotiated-timeout': 'a time extension was declined',
  'cost-budget': 'the cost budget ran out',
  cancelled: 'the run was cancelled',
  error: 'the run hit an error',
  stalled: 'the run was stuck repeating itself',
};

// Labels models actually use for each section, matched against the label lower-cased with
// punctuation turned into spaces.
const LABELS: readonly (readonly [ReportSectionKey | 'stats' | 'title', RegExp])[] = [
  ['title', /^(?:(?:structured |final |partial )?progress report|report)$/],
  ['task', /^(?:(?:the |original |current )?task(?: description| summary)?|objective|goal|original request)$/],
  [
    'completedWork',
    /^(?:completed(?: work| steps| tasks)?|work (?:completed|done)|what (?:was|has been|i) (?:done|did|completed)|done(?: so far)?|progress(?: so far)?)(?: so far)?$/,
  ],
  ['keyFindings', /^(?:key |main |important )?(?:findings|results|discoveries|facts found|data gathered|what i found)(?: so far)?$/],
  [
    'attemptedInconclusive',
    /^(?:attempted(?: but| and)? inconclusive|attempted|inconclusive(?: attempts| results)?|dead ends|failed attempts|what did not work|what didn t work|unsuccessful attempts)$/,
  ],
  [
    'remaining',
    /^(?:not started(?: remaining| or remaining| and remaining)?|remaining(?: work| tasks| steps| items)?|still to do|to ?do|open (?:items|tasks)|not yet done|outstanding(?: work| tasks)?)$/,
  ],
  ['suggestedNextSteps', /^(?:(?:suggested|recommended|proposed) )?next steps|recommendations|suggestions|suggested actions$/],
  ['stats', /^(?:run )?(?:stats|statistics)$/],
];

/** Which section a heading or label names, or `undefined` for anything else. */
export function sectionOfLabel(label: string): ReportSectionKey | 'stats' | 'title' | undefined {
  const normal = label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .replace(/^(?:\d+ )+/, '')
    .replace(/^section /, '');
  for (const [key, re] of LABELS) if (re.test(normal)) return key;
  return undefined;
}

/** A report with every list empty: the start of both the parser and the fallback. */
export function emptyLists(): Pick<ProgressReport, ReportListKey> {
  return { completedWork: [], keyFindings: [], attemptedInconclusive: [], remaining: [], suggestedNextSteps: [] };
}
