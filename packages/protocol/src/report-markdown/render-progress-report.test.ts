import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { STOP_REASONS, progressReportSchema, type ProgressReport } from '../progress-report.js';
import { parseProgressReport } from './parse-progress-report.js';
import { renderProgressReport } from './render-progress-report.js';

// Text that exercises Markdown: headings, bullets, bold labels, JSON quotes, blank lines,
// leading spaces, CR, tabs, none-markers, and any unicode.
const tricky = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.string({
    unit: fc.constantFrom('#', '-', '*', '_', '"', '\\', ' ', '\n', '\r', '\t', ':', '1', '.', ')', '`', 'a', 'Task', 'None', '**', '~'),
    maxLength: 30,
  }),
  fc.constantFrom(
    'None',
    'None.',
    '_None._',
    '- x',
    '**Task:**',
    '## Key Findings',
    '"quoted"',
    '  lead',
    'trail  ',
    'a\n\nb',
    '1. one',
    'Stats: 3 iterations',
    '```',
    '---',
  ),
);

const reportArb: fc.Arbitrary<ProgressReport> = fc.record({
  task: tricky,
  reason: fc.constantFrom(...STOP_REASONS),
  completedWork: fc.array(tricky, { maxLength: 4 }),
  keyFindings: fc.array(tricky, { maxLength: 4 }),
  attemptedInconclusive: fc.array(tricky, { maxLength: 4 }),
  remaining: fc.array(tricky, { maxLength: 4 }),
  suggestedNextSteps: fc.array(tricky, { maxLength: 4 }),
  stats: fc.record(
    {
      iterations: fc.nat(),
      toolCalls: fc.oneof(fc.nat(), fc.constant(Number.MAX_SAFE_INTEGER)),
      elapsedMs: fc.double({ min: 0, max: Number.MAX_VALUE, noNaN: true }),
      costUsd: fc.double({ min: 0, max: 1e6, noNaN: true }),
    },
    { requiredKeys: ['iterations', 'toolCalls', 'elapsedMs'] },
  ),
  generatedBy: fc.constantFrom('model' as const, 'fallback' as const),
});

const sample: ProgressReport = {
  task: 'Find where auth tokens are validated and whether expiry is checked',
  reason: 'max-iterations',
  completedWork: ['Searched the repository for `verifyToken` (15 hits)', 'Read src/auth/middleware.ts'],
  keyFindings: [
    'Tokens are verified in src/auth/middleware.ts:42 with `jwt.verify(token, secret)`',
    'Expiry:\nchecked by jwt.verify (exp claim)',
  ],
  attemptedInconclusive: [],
  remaining: ['Check refresh-token rotation in src/auth/refresh.ts'],
  suggestedNextSteps: ['Read src/auth/refresh.ts', 'None'],
  stats: { iterations: 30, toolCalls: 87, elapsedMs: 252_431.5, costUsd: 0.4213 },
  generatedBy: 'model',
};

describe('renderProgressReport', () => {
  it('writes the title, a stats line and the six sections in order', () => {
    expect(renderProgressReport(sample)).toMatchInlineSnapshot(`
      "## PROGRESS REPORT

      **Stats:** 30 iterations · 87 tool calls · 252431.5 ms elapsed (4m 12s) · cost $0.4213 · stopped: max-iterations (the iteration limit was reached) · written by: model

      ### Task

      Find where auth tokens are validated and whether expiry is checked

      ### Completed Work

      - Searched the repository for \`verifyToken\` (15 hits)
      - Read src/auth/middleware.ts

      ### Key Findings

      - Tokens are verified in src/auth/middleware.ts:42 with \`jwt.verify(token, secret)\`
      - Expiry:
        checked by jwt.verify (exp claim)

      ### Attempted but Inconclusive

      _None._

      ### Not Started / Remaining

      - Check refresh-token rotation in src/auth/refresh.ts

      ### Suggested Next Steps

      - Read src/auth/refresh.ts
      - "None"
      "
    `);
  });

  it('leaves cost out when it is unknown and keeps odd text exact as a JSON string', () => {
    const { costUsd: _, ...stats } = sample.stats;
    const md = renderProgressReport({
      ...sample,
      task: '  indented\n\ntask',
      stats,
      keyFindings: ['## not a heading', '"quoted"', '**Task**'],
    });
    expect(md).not.toContain('cost');
    expect(md).toContain('\n"  indented\\n\\ntask"\n');
    expect(md).toContain('\n- ## not a heading\n- "\\"quoted\\""\n- "**Task**"\n');
  });

  it('round-trips every report exactly through parseProgressReport', () => {
    fc.assert(
      fc.property(reportArb, (report) => {
        // fast-check builds null-prototype records; compare against plain copies.
        const plain = { ...report, stats: { ...report.stats } };
        const { report: back, warnings } = parseProgressReport(renderProgressReport(report));
        expect(back).toStrictEqual(plain);
        expect(warnings).toEqual([]);
        expect(progressReportSchema.parse(back)).toStrictEqual(plain);
      }),
      { numRuns: 600 },
    );
  }, 60_000);

  it('keeps the stats unrounded and -0 as -0', () => {
    const stats = { iterations: 0, toolCalls: 3, elapsedMs: -0, costUsd: 0.1 + 0.2 };
    const back = parseProgressReport(renderProgressReport({ ...sample, stats })).report.stats;
    expect(back.costUsd).toBe(0.30000000000000004);
    expect(Object.is(back.elapsedMs, -0)).toBe(true);
  });
});
