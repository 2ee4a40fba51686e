import type { z } from 'zod';
import type { ValidationIssue } from './headway-error.js';

/**
 * Renders a path the way a person reads it: `report.stats.iterations`, `items[2].name`.
 */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (typeof key === 'symbol') out += `[${key.toString()}]`;
    else if (/^[a-z_$][\w$-]*$/i.test(key)) out += out === '' ? key : `.${key}`;
    else out += `[${JSON.stringify(key)}]`;
  }
  return out;
}

/** Issues kept by {@link toValidationIssues} (the first ones, in input order). */
export const MAX_VALIDATION_ISSUES = 100;

/** Issues named by {@link describeIssues} before it says how many more there are. */
export const MAX_DESCRIBED_ISSUES = 20;

/**
 * Issues a headway error carries at most (20); past that, {@link limitIssues} adds one last
 * issue that says how many more there were, so hostile input cannot make an error of megabytes.
 */
export const MAX_REPORTED_ISSUES = 20;

/** Options of {@link limitIssues}. */
export interface LimitIssuesOptions {
  /** Issues kept before the rest are only counted (default {@link MAX_REPORTED_ISSUES}). */
  max?: number;
  /** How many issues there are in all, when `issues` is only the first of them (default its length). */
  total?: number;
}

const MORE_ISSUES = /^and \d+ more issues?$/;

/**
 * The first `max` issues (default {@link MAX_REPORTED_ISSUES}) and, when there were more, one
 * last issue `{ path: '', message: 'and K more issues' }`: what every headway error carries in
 * `issues`. {@link describeIssues} prints that last one as `and K more`.
 *
 * @example
 * ```ts
 * const issues = limitIssues(toValidationIssues(result.error, Infinity));
 * throw new ReportError('REPORT_INVALID_LOG_STATE', `Invalid state: ${describeIssues(issues)}`, { issues });
 * ```
 */
export function limitIssues(issues: readonly ValidationIssue[], options: LimitIssuesOptions = {}): ValidationIssue[] {
  const max = Math.max(0, options.max ?? MAX_REPORTED_ISSUES);
  const total = Math.max(issues.length, options.total ?? issues.length);
  if (total <= max) return [...issues];
  const more = total - max;
  return [...issues.slice(0, max), { path: '', message: `and ${String(more)} more issue${more === 1 ? '' : 's'}` }];
}

/** Longest path or message {@link describeIssues} prints whole. */
const MAX_ISSUE_TEXT = 200;

function clip(text: string): string {
  return text.length > MAX_ISSUE_TEXT ? `${text.slice(0, MAX_ISSUE_TEXT)}…` : text;
}

/**
 * Turns zod's issues into `{ path, message }` pairs with lower-case messages, the first `max`
 * of them (default {@link MAX_VALIDATION_ISSUES}): hostile input can hold a million problems,
 * and a list that long costs more than it tells. Shared by every package that validates
 * untrusted input, so errors read the same.
 */
export function toValidationIssues(error: z.ZodError, max: number = MAX_VALIDATION_ISSUES): ValidationIssue[] {
  return error.issues.slice(0, Math.max(0, max)).map((issue) => ({
    path: formatPath(issue.path),
    message: issue.message.charAt(0).toLowerCase() + issue.message.slice(1),
  }));
}

/** Options of {@link describeIssues}. */
export interface DescribeIssuesOptions {
  /** Issues named before the rest are only counted (default {@link MAX_DESCRIBED_ISSUES}). */
  max?: number;
  /** How many issues there are in all, when `issues` is only the first of them (default its length). */
  total?: number;
}

/**
 * `path: message; path: message` — one line naming the problems: the first `max` (default
 * {@link MAX_DESCRIBED_ISSUES}), then `and K more`, each path and message cut at 200
 * characters, so the line stays short whatever the input. The count {@link limitIssues} adds
 * is read as part of `total`.
 */
export function describeIssues(issues: readonly ValidationIssue[], options: DescribeIssuesOptions = {}): string {
  const last = issues.at(-1);
  const counted = last?.path === '' && MORE_ISSUES.test(last.message) ? Number(/\d+/.exec(last.message)?.[0]) : 0;
  const listed = counted > 0 ? issues.slice(0, -1) : issues;
  const max = Math.max(0, options.max ?? MAX_DESCRIBED_ISSUES);
  const total = Math.max(listed.length + counted, options.total ?? listed.length + counted);
  const shown = listed.slice(0, max).map((i) => `${i.path === '' ? '(root)' : clip(i.path)}: ${clip(i.message)}`);
  if (total > shown.length) shown.push(`and ${String(total - shown.length)} more`);
  return shown.join('; ');
}
