import type { ProgressReport } from '@headway/protocol';
import { describeStats, STOP_REASON_TEXT } from '@headway/protocol/internal';

function bullets(items: readonly string[]): string[] {
  return items.map((item) => `- ${item.replace(/\n/g, '\n  ')}`);
}

/**
 * The first user message for a follow-up agent that continues a run which stopped short:
 * what was asked, what is already known (inline, so it need not be found again), what to
 * do next, and what not to repeat.
 *
 * @example
 * ```ts
 * const next = await runAgent({ task: continuationPrompt(report) });
 * ```
 */
export function continuationPrompt(report: ProgressReport): string {
  const out = [
    `You are continuing a task that an earlier run did not finish: it stopped because ${STOP_REASON_TEXT[report.reason]}, after ${describeStats(report.stats)}.`,
    'Build on its work below. Do not start over and do not redo what is already done.',
    '',
    '## Task',
    '',
    report.task === '' ? '(not stated)' : report.task,
  ];
  if (report.completedWork.length > 0 || report.keyFindings.length > 0) {
    out.push('', '## What is already known', '');
    if (report.completedWork.length > 0) out.push('Done so far:', ...bullets(report.completedWork), '');
    if (report.keyFindings.length > 0)
      out.push('Findings (use them as they are, no need to look them up again):', ...bullets(report.keyFindings), '');
    out.pop();
  }
  out.push('', '## What to do next', '');
  const todo = [...report.remaining, ...report.suggestedNextSteps];
  if (todo.length > 0) {
    if (report.remaining.length > 0) out.push('Still to do:', ...bullets(report.remaining));
    if (report.remaining.length > 0 && report.suggestedNextSteps.length > 0) out.push('');
    if (report.suggestedNextSteps.length > 0)
      out.push('Suggested next steps, most important first:', ...bullets(report.suggestedNextSteps));
  } else {
    out.push('Check what is known above against the task, fill any gap, and give the final answer.');
  }
  if (report.attemptedInconclusive.length > 0) {
    out.push(
      '',
      '## Do not repeat',
      '',
      'These were tried and failed or gave nothing; only retry one with a different approach:',
      ...bullets(report.attemptedInconclusive),
    );
  }
  return out.join('\n');
}
