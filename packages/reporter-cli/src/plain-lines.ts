import type { ProgressEvent } from '@headway/protocol';
import { toolResultPreview } from '@headway/protocol';
import { displayPercent, noticeOf, type NoticeLevel } from './event-text.js';
import { formatDuration } from '@headway/protocol/internal';
import { formatEtaRange } from './format-eta-range.js';
import { renderReportMarkdown } from './report-markdown.js';
import { oneLine } from './terminal-text.js';

const PREFIX = '  [progress] ';
const NOTICE_WORDS: Record<NoticeLevel, string> = { warning: 'Warning', limit: 'Limit', info: 'Note' };

/** The exact plain lines of the seven reporter methods (no trailing newline). */
export const plainLine = {
  start: (task: string): string => `${PREFIX}Starting: ${oneLine(task)}`,
  progress: (pct: number, label: string): string => {
    const text = oneLine(label);
    return `${PREFIX}${displayPercent(pct)}%${text === '' ? '' : ` ${text}`}`;
  },
  toolStart: (name: string): string => `${PREFIX}Tool: ${oneLine(name)}...`,
  toolDone: (name: string, summary: string): string => `${PREFIX}Tool: ${oneLine(name)} done — ${oneLine(summary)}`,
  iteration: (i: number, max: number): string => `${PREFIX}Iteration ${i + 1}/${max}`,
  complete: (summary: string): string => `${PREFIX}Complete: ${oneLine(summary)}`,
  error: (error: string): string => `${PREFIX}Error: ${oneLine(error)}`,
} as const;

/** Text as it is when nothing is to be redacted. */
const unchanged = (text: string): string => text;

/**
 * The plain text of one event: the seven-method lines plus what only events carry
 * (durations, previews, ETA, limits, the report). Events with nothing for a person to read
 * in a log (`thinking`, `text.delta`, steps) give no text. May span several lines.
 * `redactPreview` is applied to a tool result's preview and an intermediate result's content
 * as given, before they are cut to `previewLength`: a secret cut in half by the cut no longer
 * looks like one, and half a secret is still a leak.
 */
export function plainEventText(
  event: ProgressEvent,
  previewLength: number,
  redactPreview: (text: string) => string = unchanged,
): string | undefined {
  switch (event.type) {
    case 'run.started':
      return plainLine.start(event.task ?? event.agentName);
    case 'iteration':
      return plainLine.iteration(event.index, event.max);
    case 'progress': {
      if (event.guess === true) {
        // A guessed percent: marked with ~, and no ETA.
        const text = oneLine(event.message ?? '');
        return `${PREFIX}~${displayPercent(event.percent)}%${event.plan === undefined ? '' : ` (plan ${event.plan})`}${text === '' ? '' : ` ${text}`}`;
      }
      const base = plainLine.progress(event.percent, event.message ?? '');
      const line = event.plan === undefined ? base : base.replace(/%/, `% (plan ${event.plan})`);
      if (event.etaLowMs !== undefined && event.etaHighMs !== undefined)
        return `${line} (ETA ${formatEtaRange(event.etaLowMs, event.etaHighMs)})`;
      return event.etaMs === undefined ? line : `${line} (ETA ${formatDuration(event.etaMs)})`;
    }
    case 'tool.executing':
      return plainLine.toolStart(event.toolName);
    case 'tool.completed': {
      const line = `${plainLine.toolDone(event.toolName, event.ok ? 'ok' : 'error')} in ${formatDuration(event.durationMs)}`;
      const preview = event.preview === undefined ? '' : toolResultPreview(oneLine(redactPreview(event.preview)), previewLength);
      return preview === '' ? line : `${line}: ${preview}`;
    }
    case 'intermediate.result': {
      const preview = toolResultPreview(oneLine(redactPreview(event.content)), previewLength);
      return preview === '' ? undefined : `${PREFIX}Result: ${preview}`;
    }
    case 'limit.approaching':
    case 'limit.reached':
    case 'wind-down.started':
    case 'timeout.extended':
    case 'stall.detected':
    case 'stall.cleared': {
      const notice = noticeOf(event);
      return notice === undefined ? undefined : `${PREFIX}${NOTICE_WORDS[notice.level]}: ${notice.text}`;
    }
    case 'checkpoint.saved':
      return `${PREFIX}Checkpoint saved: ${oneLine(event.checkpointId)}`;
    case 'tool.flagged':
      return `${PREFIX}Warning: output of ${oneLine(event.toolName)} looks like a prompt injection (${oneLine(event.findings.join('; '))}); passed on as untrusted data`;
    case 'strategy.rotated':
      return `${PREFIX}Warning: ${oneLine(event.toolName)} failed ${event.failures} times in a row; the model was asked to change strategy`;
    case 'report.generated':
      return `\n${renderReportMarkdown(event.report)}\n`;
    case 'run.finished': {
      const facts = [formatDuration(event.durationMs), ...(event.tokenCount === undefined ? [] : [`${event.tokenCount} tokens`])];
      if (event.outcome === 'limit')
        return `${PREFIX}Stopped at a limit: ${oneLine(event.summary ?? 'see the progress report')} (${facts.join(', ')})`;
      return `${plainLine.complete(event.summary ?? 'finished')} (${facts.join(', ')})`;
    }
    case 'run.error':
      return plainLine.error(event.error);
    case 'run.cancelled':
      return `${PREFIX}Cancelled: ${oneLine(event.reason ?? 'no reason given')}`;
    case 'plan.updated': {
      const done = event.items.filter((item) => item.status === 'completed').length;
      const current = event.items.find((item) => item.status === 'in_progress');
      const now = current === undefined ? '' : ` — now: ${toolResultPreview(oneLine(current.text), previewLength)}`;
      return `${PREFIX}Plan: ${done}/${event.items.length} done${now}`;
    }
    case 'step.started':
    case 'step.finished':
    case 'thinking':
    case 'text.delta':
      return undefined;
  }
}
