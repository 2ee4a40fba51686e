import { describeIssues, toValidationIssues } from '@headway/protocol';
import type { z } from 'zod';
import { ContextError } from './context-error.js';

/**
 * Validates `input` against `schema` at construction.
 *
 * @throws {ContextError} `CONTEXT_INVALID_CONFIG` naming every bad field, e.g. `createContextWindow: maxTokens: too small`.
 */
export function parseOptions<T>(what: string, schema: z.ZodType<T>, input: unknown): T {
  let result: ReturnType<typeof schema.safeParse>;
  try {
    result = schema.safeParse(input);
  } catch (cause) {
    throw new ContextError('CONTEXT_INVALID_CONFIG', `Invalid ${what} options: could not be read`, {
      cause,
      issues: [{ path: '', message: 'could not be read' }],
    });
  }
  if (result.success) return result.data;
  const issues = toValidationIssues(result.error);
  throw new ContextError('CONTEXT_INVALID_CONFIG', `Invalid ${what} options: ${describeIssues(issues)}`, { issues });
}
