// Worst known inputs for every parser of @headway/report (issue: hostile input must never hang).
import { ToolCallLog, buildFallbackReport, parseProgressReport, renderProgressReport } from '@headway/report';
import type { AdversarialCase } from '../case.js';

const fill = (unit: string, n: number): string => unit.repeat(Math.max(1, Math.ceil(n / unit.length))).slice(0, n);
const parse = (input: unknown): unknown => parseProgressReport(input as string);

export const cases: AdversarialCase[] = [
  { name: 'report: parseProgressReport — heading full of spaces', make: (n) => `## Task\nt\n# a${fill(' ', n - 15)}b`, run: parse },
  {
    name: 'report: parseProgressReport — stats line of digits',
    make: (n) => `## Task\nt\n**Stats:** ${fill('1', n - 25)} iterations`,
    run: parse,
  },
  { name: 'report: parseProgressReport — stats line of numbers, no keyword', make: (n) => `**Stats:** ${fill('1 ', n - 11)}`, run: parse },
  {
    name: 'report: parseProgressReport — stats line of keywords, no numbers',
    make: (n) => `**Stats:** ${fill('iterations: tool calls = elapsed ', n - 11)}`,
    run: parse,
  },
  {
    name: 'report: parseProgressReport — stats line, spaces before "elapsed"',
    make: (n) => `**Stats:** 1${fill(' ', n - 20)}x elapsed`,
    run: parse,
  },
  {
    name: 'report: parseProgressReport — a "none" item with inner spaces',
    make: (n) => `## Completed Work\n- ___none${fill(' ', n - 30)}x`,
    run: parse,
  },
  { name: 'report: parseProgressReport — unclosed bold label', make: (n) => `## Task\nt\n- **${fill('a', n - 15)}`, run: parse },
  { name: 'report: parseProgressReport — long plain label', make: (n) => `## Task\nt\n${fill('A ', n - 12)}:`, run: parse },
  { name: 'report: parseProgressReport — many unknown sections', make: (n) => `## Task\nt\n${fill('## Other\nx\n', n - 10)}`, run: parse },
  {
    name: 'report: renderProgressReport — items of spaces and markers',
    make: (n) => ({
      task: fill('a ', n / 4),
      reason: 'max-iterations',
      completedWork: [`- ${fill(' ', n / 4)}x`],
      keyFindings: [fill('**', n / 4)],
      attemptedInconclusive: [],
      remaining: [fill('1. ', n / 4)],
      suggestedNextSteps: [],
      stats: { iterations: 1, toolCalls: 1, elapsedMs: 1 },
      generatedBy: 'model',
    }),
    run: (input) => renderProgressReport(input as Parameters<typeof renderProgressReport>[0]),
  },
  {
    // Plans read from model text: items of dashes and spaces, done marks everywhere.
    name: 'report: buildFallbackReport — plan-like notes with dashes and spaces',
    make: (n) => {
      const log = new ToolCallLog({ maxEntries: 1_000_000, keepFirst: 10 });
      const note = `Plan:\n${fill('- step -     done \n1. ~~x~~ ✓\nstep 2 done, moving on to step 3. ', 990)}`;
      for (let i = 0; i * 1000 < n; i++) log.recordText({ iteration: i + 1, text: note });
      return log;
    },
    run: (input) =>
      buildFallbackReport({
        task: 't',
        log: input as ToolCallLog,
        reason: 'max-iterations',
        stats: { iterations: 1, toolCalls: 0, elapsedMs: 1 },
      }),
  },
  {
    name: 'report: ToolCallLog.fromJSON — a state with many bad entries',
    // A bound large enough to let every entry through to validation.
    make: (n) => ({
      ...new ToolCallLog({ maxEntries: 1_000_000 }).toJSON(),
      recent: Array.from({ length: Math.floor(n / 40) }, () => ({ kind: 'text', iteration: -1, text: 7 })),
    }),
    run: (input) => ToolCallLog.fromJSON(input),
  },
];
