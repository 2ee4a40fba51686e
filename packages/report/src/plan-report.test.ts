import { describe, expect, it } from 'vitest';
import { buildFallbackReport } from './fallback-report.js';
import { buildReportPrompt } from './report-prompt.js';
import { ToolCallLog } from './tool-call-log.js';

function logWithPlan(): ToolCallLog {
  const log = new ToolCallLog();
  // Model text with a plan of its own: the plan kept with update_plan wins over it.
  log.recordText({ step: 1, text: 'Plan:\n1. Something else\n2. And more' });
  expect(log.recordPlan([{ text: 'Old list', status: 'pending' }])).toBe(true);
  log.recordToolCall({
    step: 2,
    name: 'read_file',
    args: { path: 'src/auth.ts' },
    result: 'export function login() {}',
    ok: true,
    durationMs: 5,
  });
  expect(
    log.recordPlan([
      { id: 'a', text: 'Find the login code', status: 'completed' },
      { id: 'b', text: 'Fix the token check', status: 'in_progress' },
      { id: 'c', text: 'Add a test', status: 'pending' },
    ]),
  ).toBe(true);
  return log;
}

describe('the agent plan in the progress report', () => {
  it('fills Completed Work and Not Started / Remaining from the latest plan', () => {
    const report = buildFallbackReport({
      task: 'Fix login',
      log: logWithPlan(),
      reason: 'max-iterations',
      stats: { iterations: 2, toolCalls: 1, elapsedMs: 1000 },
    });
    expect(report.completedWork[0]).toBe('Plan item done: Find the login code');
    expect(report.remaining).toEqual(['Fix the token check (in progress)', 'Add a test']);
    expect(report.suggestedNextSteps.slice(0, 2)).toEqual([
      'Resume the plan at item 2: Fix the token check',
      'Then do the other 1 remaining plan step (3)',
    ]);
  });

  it('ignores a plan that does not validate and keeps the plan through toJSON / fromJSON', () => {
    const log = logWithPlan();
    expect(log.recordPlan([])).toBe(false);
    expect(log.recordPlan([{ text: 'x', status: 'done' as 'completed' }])).toBe(false);
    expect(log.recordPlan(Array.from({ length: 10_000 }, () => ({ text: 'x', status: 'pending' as const })))).toBe(false);
    const copy = ToolCallLog.fromJSON(JSON.parse(JSON.stringify(log)));
    expect(copy.plan?.map((i) => i.status)).toEqual(['completed', 'in_progress', 'pending']);
    expect(() => ToolCallLog.fromJSON({ ...log.toJSON(), plan: [] })).toThrow(/plan/);
  });

  it('shows the plan to the model that writes the report', () => {
    const prompt = buildReportPrompt('max-iterations', { task: 'Fix login', log: logWithPlan() });
    expect(prompt).toContain('[x] Find the login code\n[~] Fix the token check\n[ ] Add a test');
  });
});
