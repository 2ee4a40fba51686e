import { describeStall } from '@headway/protocol/internal';
import type {
  LimitApproachingEvent,
  LimitKind,
  LimitReachedEvent,
  ProgressEvent,
  TimeoutExtendedEvent,
  WindDownStartedEvent,
} from '@headway/protocol';
import { formatDuration } from '@headway/protocol/internal';
import { oneLine } from './terminal-text.js';

const LIMIT_NAMES: Record<LimitKind, string> = { iterations: 'iteration', time: 'time', cost: 'cost' };

function amount(kind: LimitKind, value: number): string {
  if (kind === 'time') return formatDuration(value);
  if (kind === 'cost') return `$${value.toFixed(2)}`;
  return String(value);
}

/** `iteration limit approaching (8 of 10)`, `time limit reached (5m 00s of 5m 00s)`, `cost …($0.80 of $1.00)`. */
function limitText(event: LimitApproachingEvent | LimitReachedEvent): string {
  const state = event.type === 'limit.reached' ? 'reached' : 'approaching';
  return `${LIMIT_NAMES[event.limit]} limit ${state} (${amount(event.limit, event.used)} of ${amount(event.limit, event.max)})`;
}

/** `winding down: time budget used (2 grace iteration(s) left to write the report)`. */
function windDownText(event: WindDownStartedEvent): string {
  return `winding down: ${oneLine(event.reason)} (${event.graceIterations} grace iteration(s) left to write the report)`;
}

/** `time budget extended by 2m 00s (now 7m 00s)`. */
function timeoutExtendedText(event: TimeoutExtendedEvent): string {
  return `time budget extended by ${formatDuration(event.byMs)} (now ${formatDuration(event.totalBudgetMs)})`;
}

/** Whole percent for display: clamped to 0–100 and rounded down, so 99.7 never reads as done. */
export function displayPercent(pct: number): string {
  if (!Number.isFinite(pct)) return '?';
  return String(Math.floor(Math.min(100, Math.max(0, pct))));
}

/** How loud a notice is: the live view colours it, a plain line starts with `Warning:`, `Limit:` or `Note:`. */
export type NoticeLevel = 'warning' | 'limit' | 'info';

/** The notice of a limit, wind-down, time-extension or stall event, as both views show it; `undefined` for any other event. */
export function noticeOf(event: ProgressEvent): { level: NoticeLevel; text: string } | undefined {
  switch (event.type) {
    case 'limit.approaching':
      return { level: 'warning', text: limitText(event) };
    case 'limit.reached':
      return { level: 'limit', text: limitText(event) };
    case 'wind-down.started':
      return { level: 'warning', text: windDownText(event) };
    case 'timeout.extended':
      return { level: 'info', text: timeoutExtendedText(event) };
    case 'stall.detected':
      return { level: 'warning', text: `stuck? ${describeStall(event)}` };
    case 'stall.cleared':
      return { level: 'info', text: 'moving again: no longer stuck' };
    default:
      return undefined;
  }
}
