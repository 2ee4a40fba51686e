import type { ProgressReport } from '@headway/protocol';
import { describe, expect, it } from 'vitest';
import { reportHasContent } from './report-content.js';

const empty: ProgressReport = {
  task: 'Summarize the README file',
  reason: 'error',
  completedWork: [],
  keyFindings: [],
  attemptedInconclusive: [],
  remaining: ['The task, not finished when the run stopped: Summarize the README file'],
  suggestedNextSteps: ['Start the task: Summarize the README file'],
  stats: { iterations: 0, toolCalls: 0, elapsedMs: 3 },
  generatedBy: 'fallback',
};

describe('reportHasContent', () => {
  it('is false for a run that did nothing, whatever it suggests', () => {
    expect(reportHasContent(empty)).toBe(false);
  });

  it('is true once an iteration, a tool call or a finding is recorded', () => {
    expect(reportHasContent({ ...empty, stats: { ...empty.stats, iterations: 1 } })).toBe(true);
    expect(reportHasContent({ ...empty, stats: { ...empty.stats, toolCalls: 2 } })).toBe(true);
    expect(reportHasContent({ ...empty, completedWork: ['Listed the packages'] })).toBe(true);
    expect(reportHasContent({ ...empty, keyFindings: ['README: 21 packages'] })).toBe(true);
  });

  it('is false for a run that failed at once, with only its error to say', () => {
    expect(reportHasContent({ ...empty, attemptedInconclusive: ['The run stopped on an error: OPENAI_API_KEY is not set'] })).toBe(false);
  });
});
