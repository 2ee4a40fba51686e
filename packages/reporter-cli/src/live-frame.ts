import type { Colors } from './colors.js';
import { displayPercent } from './event-text.js';
import { fitLine } from './fit-line.js';
import { formatDuration } from '@headway/protocol/internal';
import { formatEtaRange } from './format-eta-range.js';
import type { LiveNotice, LiveOutcome, LivePlanItem, LiveState } from './live-state.js';

/** Plan items shown under the bar; the rest are folded into a count. */
export const MAX_PLAN_LINES = 6;

/** Braille dots, one frame per {@link SPINNER_INTERVAL_MS}. */
const SPINNER_FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'] as const;

/** How often the spinner advances (and the block is redrawn while a run is live). */
export const SPINNER_INTERVAL_MS = 80;

/** What a frame depends on besides the state. */
export interface FrameOptions {
  now: number;
  /** Terminal columns available. */
  width: number;
  colors: Colors;
  /** Running tools shown before `+N more`. */
  maxRunning: number;
}

function spinner(now: number, since: number): string {
  const index = Math.floor(Math.max(0, now - since) / SPINNER_INTERVAL_MS) % SPINNER_FRAMES.length;
  return SPINNER_FRAMES[index] ?? '⠋';
}

function bar(percent: number, width: number, c: Colors): string {
  const filled = Math.min(width, Math.floor((percent / 100) * width));
  return c.cyan('█'.repeat(filled)) + c.dim('░'.repeat(width - filled));
}

function elapsedText(ms: number): string {
  return ms < 60_000 ? `${Math.floor(Math.max(0, ms) / 1000)}s` : formatDuration(ms);
}

function etaText(remainingMs: number): string {
  return remainingMs < 1000 ? '<1s' : elapsedText(remainingMs);
}

/** Time left as the block shows it: the range when there is one (`ETA 2–5 min`), else the point. */
function etaFacts(eta: NonNullable<LiveState['eta']>, now: number): string {
  const since = now - eta.at;
  if (eta.lowMs !== undefined && eta.highMs !== undefined) return `ETA ${formatEtaRange(eta.lowMs - since, eta.highMs - since)}`;
  return `ETA ${etaText(eta.ms - since)}`;
}

/**
 * The plan pinned under the bar: a count, then at most {@link MAX_PLAN_LINES} items around the
 * current one (done items ticked, the current one highlighted), the others folded into counts.
 */
function planLines(plan: readonly LivePlanItem[], c: Colors): string[] {
  const done = plan.filter((item) => item.status === 'completed').length;
  const lines = [`  ${c.bold('Plan')} ${c.dim(`${done}/${plan.length} done`)}`];
  let current = plan.findIndex((item) => item.status === 'in_progress');
  if (current < 0) current = plan.findIndex((item) => item.status !== 'completed');
  if (current < 0) current = plan.length - 1;
  const start = Math.max(0, Math.min(current - 1, plan.length - MAX_PLAN_LINES));
  const end = Math.min(plan.length, start + MAX_PLAN_LINES);
  if (start > 0) lines.push(`    ${c.dim(`… ${start} more above`)}`);
  for (const item of plan.slice(start, end)) {
    if (item.status === 'completed') lines.push(`    ${c.green('✓')} ${c.dim(item.text)}`);
    else if (item.status === 'in_progress') lines.push(`    ${c.cyan('▸')} ${c.bold(item.text)}`);
    else lines.push(`    ${c.dim('○')} ${item.text}`);
  }
  if (end < plan.length) lines.push(`    ${c.dim(`… ${plan.length - end} more`)}`);
  return lines;
}

function noticeLine(notice: LiveNotice, c: Colors): string {
  if (notice.level === 'limit') return `  ${c.red(`■ ${notice.text}`)}`;
  if (notice.level === 'warning') return `  ${c.yellow(`⚠ ${notice.text}`)}`;
  return `  ${c.blue(`ℹ ${notice.text}`)}`;
}

const OUTCOME_STYLE: Record<LiveOutcome['kind'], { icon: string; label: string; color: keyof Pick<Colors, 'green' | 'yellow' | 'red'> }> = {
  completed: { icon: '✔', label: 'Complete:', color: 'green' },
  limit: { icon: '■', label: 'Stopped at a limit:', color: 'yellow' },
  error: { icon: '✖', label: 'Error:', color: 'red' },
  cancelled: { icon: '✖', label: 'Cancelled:', color: 'yellow' },
};

/**
 * The live status block for the current state, one string with `\n` between lines. Every
 * line but the final outcome is cut to the width so the block never wraps; the outcome
 * stays whole because it is what the user reads last.
 */
export function renderLiveFrame(state: LiveState, options: FrameOptions): string {
  const { now, colors: c } = options;
  const width = Math.max(1, options.width);
  const lines: string[] = [];
  const { outcome } = state;
  const style = outcome === undefined ? undefined : OUTCOME_STYLE[outcome.kind];
  const icon = style === undefined ? c.cyan(spinner(now, state.startedAt)) : c[style.color](style.icon);
  lines.push(`${icon} ${c.bold(state.task === '' ? 'Working' : state.task)}`);

  const elapsedMs = outcome === undefined ? now - state.startedAt : outcome.durationMs;
  const barWidth = Math.max(10, Math.min(30, Math.floor(width * 0.3)));
  const guessed = state.guess && outcome === undefined;
  const facts = [`${guessed ? '~' : ''}${displayPercent(state.percent ?? 0).padStart(3)}%`, elapsedText(elapsedMs)];
  if (state.eta !== undefined && outcome === undefined && !guessed) facts.push(etaFacts(state.eta, now));
  if (state.planNumber !== undefined && outcome === undefined) facts.push(`plan ${state.planNumber}`);
  if (state.iteration !== undefined) facts.push(`iteration ${state.iteration.index + 1}/${state.iteration.max}`);
  lines.push(`  ${bar(state.percent ?? 0, barWidth, c)} ${facts.join(c.dim(' · '))}`);

  if (outcome === undefined) {
    if (state.plan !== undefined && state.plan.length > 0) lines.push(...planLines(state.plan, c));
    if (state.label !== '') lines.push(`  ${c.dim(state.label)}`);
    for (const tool of state.finished) {
      const mark = tool.ok ? c.green('✓') : c.red('✗');
      const preview = tool.preview === '' ? '' : `  ${c.dim(tool.preview)}`;
      lines.push(`  ${mark} ${tool.name} ${c.dim(formatDuration(tool.durationMs))}${preview}`);
    }
    const shown = state.running.oldest(options.maxRunning);
    for (const tool of shown) {
      lines.push(`  ${c.cyan(spinner(now, tool.startedAt))} ${tool.name} ${c.dim(formatDuration(now - tool.startedAt))}`);
    }
    if (state.running.size > shown.length) lines.push(`  ${c.dim(`+${state.running.size - shown.length} more running`)}`);
  }
  for (const notice of state.notices) lines.push(noticeLine(notice, c));

  const fitted = lines.map((line) => fitLine(line, width));
  if (outcome !== undefined && style !== undefined) {
    const tools = `${state.toolCalls} tool call(s)${state.failedTools > 0 ? `, ${c.red(`${state.failedTools} failed`)}` : ''}`;
    fitted.push(`  ${c[style.color](style.label)} ${outcome.text} ${c.dim('·')} ${tools}`);
  }
  return fitted.join('\n');
}
