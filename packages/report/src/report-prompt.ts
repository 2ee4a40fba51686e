import type { StopReason } from '@headway/protocol';
import { formatCount, formatDuration, oneLine, SECTION_TITLES } from '@headway/protocol/internal';
import type { ToolCallLog } from './tool-call-log.js';

/** How much of each limit was used, to tell the model precisely why it must stop. All optional. */
export interface ReportPromptLimits {
  iterations?: number;
  maxIterations?: number;
  elapsedMs?: number;
  timeBudgetMs?: number;
  costUsd?: number;
  costBudgetUsd?: number;
  /** For a run wound down as stuck: what repeated, as `stall.detected` names it (`ls src/work 5× with the same result`). */
  stall?: string;
}

/** What {@link buildReportPrompt} needs. */
export interface ReportPromptContext {
  task: string;
  log: ToolCallLog;
  limits?: ReportPromptLimits;
  /** Most activity-log lines to include (default 100): the first fifth and the most recent ones. */
  maxActivityLines?: number;
}

function money(usd: number): string {
  return `$${usd.toFixed(usd < 1 ? 4 : 2)}`;
}

function of(used: string | undefined, max: string | undefined): string {
  if (used !== undefined && max !== undefined) return ` (${used} of ${max})`;
  if (used !== undefined) return ` (${used} used)`;
  return '';
}

/** Why the model must stop now, as a sentence addressed to it. */
function stopSentence(reason: StopReason, l: ReportPromptLimits): string {
  const mapped = <T>(v: T | undefined, f: (v: T) => string): string | undefined => (v === undefined ? undefined : f(v));
  switch (reason) {
    case 'max-iterations':
      return `You have reached the iteration limit${of(mapped(l.iterations, formatCount), mapped(l.maxIterations, formatCount))}.`;
    case 'time-budget':
      return `Your time budget is used up${of(mapped(l.elapsedMs, formatDuration), mapped(l.timeBudgetMs, formatDuration))}.`;
    case 'negotiated-timeout':
      return `Your time budget is used up${of(mapped(l.elapsedMs, formatDuration), mapped(l.timeBudgetMs, formatDuration))} and the request for more time was declined.`;
    case 'cost-budget':
      return `Your cost budget is used up${of(mapped(l.costUsd, money), mapped(l.costBudgetUsd, money))}.`;
    case 'cancelled':
      return 'The run was cancelled.';
    case 'error':
      return 'The run hit an error it cannot recover from.';
    case 'stalled':
      return `You are stuck repeating yourself${l.stall === undefined ? '' : ` (${oneLine(l.stall).slice(0, 200)})`}; the run is being stopped so the budget is not burnt on the loop. Say under Attempted but Inconclusive what looped.`;
  }
}

function activity(log: ToolCallLog, maxLines: number): string[] {
  const lines = log.activityLog();
  if (lines.length === 0) return ['(no tool calls yet)'];
  if (lines.length <= maxLines) return lines;
  const first = Math.max(1, Math.floor(maxLines / 5));
  const last = Math.max(1, maxLines - first - 1);
  return [...lines.slice(0, first), `… ${formatCount(lines.length - first - last)} more lines …`, ...lines.slice(-last)];
}

/**
 * The instruction a model gets when it must wind down: why it has to stop now, the six
 * sections to write, the demand to include every useful piece of data inline (not "I
 * found X" but X itself), the task, and the activity log of what it did.
 * Parse the answer with `parseProgressReport`.
 *
 * @example
 * ```ts
 * const prompt = buildReportPrompt('max-iterations', { task, log, limits: { iterations: 30, maxIterations: 30 } });
 * const answer = await model.generate([...messages, { role: 'user', content: prompt }]);
 * const { report } = parseProgressReport(answer, { task, reason: 'max-iterations', stats, generatedBy: 'model' });
 * ```
 */
export function buildReportPrompt(reason: StopReason, ctx: ReportPromptContext): string {
  const maxLines =
    ctx.maxActivityLines !== undefined && Number.isFinite(ctx.maxActivityLines) ? Math.max(3, Math.floor(ctx.maxActivityLines)) : 100;
  const t = SECTION_TITLES;
  return [
    `STOP: ${stopSentence(reason, ctx.limits ?? {})} You cannot call any more tools, and the task is not finished.`,
    '',
    'Do not answer that you were unable to complete the task. Instead, write a progress report that lets another agent (or a person) continue from exactly where you stopped, without starting over.',
    '',
    'Include ALL useful data you gathered inline — do not just say that you found X, include X: file paths and line numbers, names, values, URLs, quotes, numbers, partial results.',
    '',
    'Use exactly this format:',
    '',
    '## PROGRESS REPORT',
    '',
    `### ${t.task}`,
    'The original task, restated in one or two sentences.',
    '',
    `### ${t.completedWork}`,
    '- What you did and what each step produced.',
    '',
    `### ${t.keyFindings}`,
    '- Every fact, result and piece of data you found, written out in full.',
    '',
    `### ${t.attemptedInconclusive}`,
    '- What you tried that failed or gave no answer, and why, so nobody repeats it blindly.',
    '',
    `### ${t.remaining}`,
    '- The parts of the task you have not started or not finished.',
    '',
    `### ${t.suggestedNextSteps}`,
    '- Concrete next actions, most important first (which tool, which arguments, which file).',
    '',
    'Write "None." under a section that has nothing. Use bullet points for items.',
    '',
    'The task was:',
    ctx.task,
    '',
    ...planLines(ctx.log),
    'Your activity so far (oldest first):',
    ...activity(ctx.log, maxLines),
  ].join('\n');
}

/** The agent's latest plan, when it kept one: Completed Work and Not Started / Remaining follow it. */
function planLines(log: ToolCallLog): string[] {
  const plan = log.plan;
  if (plan === undefined) return [];
  const mark = { completed: '[x]', in_progress: '[~]', pending: '[ ]' } as const;
  return [
    'Your plan as you last wrote it ([x] completed, [~] in progress, [ ] pending); list its completed items under Completed Work and the others under Not Started / Remaining:',
    ...plan.map((item) => `${mark[item.status]} ${oneLine(item.text)}`),
    '',
  ];
}
