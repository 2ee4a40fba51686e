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
    else if (/^[A-Za-z_$][\w$-]*$/.test(key)) out += out === '' ? key : `.${key}`;
    else out += `[${JSON.stringify(key)}]`;
  }
  return out;
}

/**
 * Turns zod's issues into `{ path, message }` pairs with lower-case messages.
 * Shared by every package that validates untrusted input, so errors read the same.
 */
export function toValidationIssues(error: z.ZodError): ValidationIssue[] {
  return error.issues.map((issue) => ({
    path: formatPath(issue.path),
    message: issue.message.charAt(0).toLowerCase() + issue.message.slice(1),
  }));
}

/** `path: message; path: message` — one line naming every problem. */
export function describeIssues(issues: readonly ValidationIssue[]): string {
  return issues.map((i) => `${i.path === '' ? '(root)' : i.path}: ${i.message}`).join('; ');
}
