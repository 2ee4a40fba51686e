import { ToolCallLog } from '@headway/report';
import { describe, expect, it } from 'vitest';
import { reportFromModel } from './model-report.js';

const ctx = () => {
  const log = new ToolCallLog();
  log.recordToolCall({ iteration: 1, name: 'read', args: { path: 'a.ts' }, result: 'ok', ok: true, durationMs: 1 });
  return { task: 'Find the auth middleware', reason: 'max-iterations' as const, stats: { iterations: 2, toolCalls: 1, elapsedMs: 5 }, log };
};

describe('reportFromModel', () => {
  it('reads a model-written report', () => {
    const text = '## Task\nFind the auth middleware\n## Completed Work\n- read a.ts\n## Suggested Next Steps\n- read b.ts';
    const { report, warnings } = reportFromModel(text, ctx());
    expect(warnings).toEqual([
      'model report: missing section "Key Findings"; left empty',
      'model report: missing section "Attempted but Inconclusive"; left empty',
      'model report: missing section "Not Started / Remaining"; left empty',
    ]);
    // The loop's own reason and counters win over the model's.
    expect(report.reason).toBe('max-iterations');
    expect(report.stats).toEqual({ iterations: 2, toolCalls: 1, elapsedMs: 5 });
    expect(report.completedWork.join('\n')).toContain('read a.ts');
  });

  it('falls back to the tool-call log for garbage, an empty answer or none, saying why', () => {
    for (const text of ['I cannot do that.', '', undefined, '\u0000'.repeat(300_000)]) {
      const { report, warnings } = reportFromModel(text, ctx());
      expect(warnings).toHaveLength(1);
      expect(report.task).toBe('Find the auth middleware');
    }
  });
});
