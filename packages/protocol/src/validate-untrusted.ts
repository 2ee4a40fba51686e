import type { z } from 'zod';
import { limitIssues, MAX_REPORTED_ISSUES, toValidationIssues } from './format-issues.js';
import type { ValidationIssue } from './headway-error.js';
import { errorMessage } from './untrusted.js';

/** What {@link validateUntrusted} found: the parsed value, or the problems (and what the input threw, if it did). */
export type Validated<T> = { success: true; data: T } | { success: false; issues: ValidationIssue[]; cause?: unknown };

/**
 * Validates untrusted `value` with a zod `schema` without trusting it to behave: a throwing
 * getter or a revoked proxy is one issue, `(root): could not be read (…)`, with the thrown
 * value as `cause`, never a throw. Issues come as every headway error carries them: the first
 * `maxIssues` (default 20) and one that counts the rest.
 *
 * @example
 * ```ts
 * const result = validateUntrusted(stateSchema, state);
 * if (!result.success) {
 *   const { issues, cause } = result;
 *   throw new ReportError('REPORT_INVALID_LOG_STATE', `Invalid state: ${describeIssues(issues)}`, { issues, cause });
 * }
 * ```
 */
export function validateUntrusted<T>(schema: z.ZodType<T>, value: unknown, maxIssues: number = MAX_REPORTED_ISSUES): Validated<T> {
  let result;
  try {
    result = schema.safeParse(value);
  } catch (cause) {
    return { success: false, issues: [{ path: '', message: `could not be read (${errorMessage(cause, 200)})` }], cause };
  }
  if (result.success) return { success: true, data: result.data };
  const { issues } = result.error;
  return { success: false, issues: limitIssues(toValidationIssues(result.error, maxIssues), { max: maxIssues, total: issues.length }) };
}
