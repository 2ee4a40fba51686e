import { STOP_REASONS, type ProgressReport } from '@headway/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { untrustedText } from './fake-terminal.test-util.js';
import { renderReportMarkdown } from './report-markdown.js';

const HEADINGS = ['### Task', '### Completed Work', '### Key Findings', '### Attempted but Inconclusive', '### Not Started / Remaining', '### Suggested Next Steps'];

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
  it('keeps a multi-line item one list item and states why and how far the run got', () => {
    const md = renderReportMarkdown(base);
    expect(md.split('\n').slice(0, 3)).toEqual([
      '## PROGRESS REPORT',
      '',
      'Stopped because the cost budget ran out · 4 iteration(s) · 9 tool call(s) · 4.2s · $1.50 · written by the model',
    ]);
    expect(md).toContain('### Completed Work\n\n- Ran the suite 3 times\n  failures in 2 runs\n');
    expect(md).toContain('### Key Findings\n\n- (none)\n');
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
        for (const item of r.keyFindings) {
          const words = item.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ').trim().split(/\s+/)[0] ?? ''; // eslint-disable-line no-control-regex -- see above
          expect(md).toContain(words);
        }
      }),
      { numRuns: 100 },
    );
  });
});
