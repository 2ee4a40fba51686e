import { STOP_REASONS, parseProgressReport, type ProgressReport } from '@headway/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { untrustedText } from './fake-terminal.test-util.js';
import { renderReportMarkdown } from './report-markdown.js';

const HEADINGS = [
  '### Task',
  '### Completed Work',
  '### Key Findings',
  '### Attempted but Inconclusive',
  '### Not Started / Remaining',
  '### Suggested Next Steps',
];

const base: ProgressReport = {
  task: 'Find the flaky test',
  reason: 'cost-budget',
  completedWork: ['Ran the suite 3 times\nfailures in 2 runs'],
  keyFindings: [],
  attemptedInconclusive: [],
  remaining: [],
  suggestedNextSteps: [],
  stats: { iterations: 4, toolCalls: 9, elapsedMs: 4_200, costUsd: 1.5 },
  generatedBy: 'model',
};

describe('renderReportMarkdown', () => {
  it('is the one report format: what it prints parses back to the same report', () => {
    expect(parseProgressReport(renderReportMarkdown(base))).toEqual({ report: base, warnings: [] });
  });

  it('keeps a multi-line item one list item and states why and how far the run got', () => {
    const md = renderReportMarkdown(base);
    expect(md.split('\n').slice(0, 3)).toEqual([
      '## PROGRESS REPORT',
      '',
      '**Stats:** 4 iterations · 9 tool calls · 4200 ms elapsed (4.2s) · cost $1.5 · stopped: cost-budget (the cost budget ran out) · written by: model',
    ]);
    expect(md).toContain('### Completed Work\n\n- Ran the suite 3 times\n  failures in 2 runs\n');
    expect(md).toContain('### Key Findings\n\n_None._\n');
  });

  it('keeps an item whole when it holds a line or paragraph separator (U+2028, U+2029)', () => {
    for (const item of ['\u2028*', '\u2029 *', 'a\u2028b']) {
      const r: ProgressReport = {
        task: '',
        reason: 'max-iterations',
        completedWork: [],
        keyFindings: [],
        attemptedInconclusive: [],
        remaining: [],
        suggestedNextSteps: [item],
        stats: { iterations: 0, toolCalls: 0, elapsedMs: 0 },
        generatedBy: 'model',
      };
      expect(parseProgressReport(renderReportMarkdown(r)).report.suggestedNextSteps).toHaveLength(1);
    }
  });

  it('has the six sections in order with every item, and no control characters, for any report', () => {
    const text = untrustedText(30);
    const items = fc.array(text, { maxLength: 4 });
    const report = fc.record({
      task: text,
      reason: fc.constantFrom(...STOP_REASONS),
      completedWork: items,
      keyFindings: items,
      attemptedInconclusive: items,
      remaining: items,
      suggestedNextSteps: items,
      stats: fc.record({ iterations: fc.nat(), toolCalls: fc.nat(), elapsedMs: fc.nat() }),
      generatedBy: fc.constantFrom<ProgressReport['generatedBy']>('model', 'fallback'),
    });
    fc.assert(
      fc.property(report, (r) => {
        const md = renderReportMarkdown(r);
        const lines = md.split('\n');
        expect(lines[0]).toBe('## PROGRESS REPORT');
        const at = HEADINGS.map((h) => lines.indexOf(h));
        expect(at.every((i) => i > 0)).toBe(true);
        expect([...at].sort((a, b) => a - b)).toEqual(at);
        // eslint-disable-next-line no-control-regex -- no escape may reach the terminal
        expect(md).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
        // Every item is still there: the printed report reads back with as many items per section.
        const back = parseProgressReport(md).report;
        for (const key of ['completedWork', 'keyFindings', 'attemptedInconclusive', 'remaining', 'suggestedNextSteps'] as const) {
          expect(back[key]).toHaveLength(r[key].length);
        }
      }),
      { numRuns: 100 },
    );
  });
});
