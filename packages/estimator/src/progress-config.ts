import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { describeIssues, limitIssues, toValidationIssues, type ValidationIssue } from '@headway/protocol';
import { errorMessage } from '@headway/protocol/internal';
import { z } from 'zod';
import { EstimatorError, shown } from './estimator-error.js';
import type { WeightedStep } from './step-ranges.js';

/** Largest agent.json {@link loadProgressConfig} reads: 1 MiB (a real one is a few KB). */
export const MAX_CONFIG_BYTES = 1_048_576;

/** Most `fallbackSteps` an agent.json may list (a real one has a handful). */
export const MAX_FALLBACK_STEPS = 1_000;

/** The `progress` block of an agent.json. */
export interface ProgressConfig {
  /** Expect the model to report `_progress` (default true). */
  aiDriven: boolean;
  /** Steps shown, and used for percent, when the model does not report (default none). */
  fallbackSteps: WeightedStep[];
}

const weightedStepSchema: z.ZodType<WeightedStep> = z.strictObject({
  name: z.string({ error: 'expected a string' }).min(1, { error: 'expected a non-empty string' }),
  weight: z
    .number({ error: 'expected a positive number' })
    .refine((n) => Number.isFinite(n) && n > 0, { error: 'expected a positive number' }),
});

/**
 * Validates the `progress` block of an agent.json and fills its defaults.
 *
 * @example
 * ```ts
 * progressConfigSchema.parse({}); // { aiDriven: true, fallbackSteps: [] }
 * ```
 */
export const progressConfigSchema: z.ZodType<ProgressConfig> = z.strictObject({
  aiDriven: z.boolean({ error: 'expected true or false' }).default(true),
  fallbackSteps: z
    .array(weightedStepSchema, { error: 'expected an array of { name, weight }' })
    .max(MAX_FALLBACK_STEPS, { error: `expected at most ${MAX_FALLBACK_STEPS} steps` })
    .default([]),
});

const agentFileSchema = z.looseObject({ progress: progressConfigSchema.optional() });

/**
 * Reads an agent.json and returns its validated `progress` block (defaults when absent).
 *
 * A UTF-8 byte order mark at the start is accepted. Files over {@link MAX_CONFIG_BYTES} are
 * refused before they are read.
 *
 * @throws {EstimatorError} `ESTIMATOR_INVALID_CONFIG` naming the file and the JSON path,
 * e.g. `agent.json: progress.fallbackSteps[1].weight: expected a positive number`.
 * @example
 * ```ts
 * const { aiDriven, fallbackSteps } = await loadProgressConfig('./agent.json');
 * ```
 */
export async function loadProgressConfig(path: string): Promise<ProgressConfig> {
  if (typeof path !== 'string' || path === '') {
    throw new EstimatorError('ESTIMATOR_INVALID_CONFIG', `loadProgressConfig: expected the path of an agent.json, got ${shown(path)}`, {
      issues: [{ path: '', message: 'expected a file path' }],
    });
  }
  const file = basename(path);
  let text: string;
  try {
    const { size } = await stat(path);
    if (size > MAX_CONFIG_BYTES) {
      throw new EstimatorError('ESTIMATOR_INVALID_CONFIG', `${file}: the file is ${size} bytes; the limit is ${MAX_CONFIG_BYTES}`, {
        issues: [{ path: '', message: 'too large' }],
      });
    }
    text = await readFile(path, 'utf8');
  } catch (cause) {
    if (cause instanceof EstimatorError) throw cause;
    throw new EstimatorError('ESTIMATOR_INVALID_CONFIG', `${file}: cannot be read (${errorMessage(cause, 300)})`, {
      issues: [{ path: '', message: 'cannot be read' }],
      cause,
    });
  }
  return parseProgressConfigText(text, file);
}

/**
 * Parses agent.json text (a leading byte order mark is skipped); `file` names the source in
 * error messages, which list at most `MAX_REPORTED_ISSUES` issues.
 */
export function parseProgressConfigText(text: string, file: string): ProgressConfig {
  let value: unknown;
  try {
    value = JSON.parse(text.startsWith('\uFEFF') ? text.slice(1) : text);
  } catch (cause) {
    throw new EstimatorError('ESTIMATOR_INVALID_CONFIG', `${file}: not valid JSON (${errorMessage(cause, 300)})`, {
      issues: [{ path: '', message: 'not valid JSON' }],
      cause,
    });
  }
  // Refused before validation: zod would make issues for every bad entry of a huge list.
  const steps = (value as { progress?: { fallbackSteps?: unknown } } | null)?.progress?.fallbackSteps;
  if (Array.isArray(steps) && steps.length > MAX_FALLBACK_STEPS) {
    const message = `expected at most ${MAX_FALLBACK_STEPS} steps, got ${steps.length}`;
    throw new EstimatorError('ESTIMATOR_INVALID_CONFIG', `${file}: progress.fallbackSteps: ${message}`, {
      issues: [{ path: 'progress.fallbackSteps', message }],
    });
  }
  const result = agentFileSchema.safeParse(value);
  if (!result.success) {
    const issues: ValidationIssue[] = limitIssues(
      toValidationIssues(result.error, Number.POSITIVE_INFINITY).map((i) =>
        i.path === '' && (typeof value !== 'object' || value === null || Array.isArray(value))
          ? { path: '', message: 'expected a JSON object' }
          : i,
      ),
    );
    throw new EstimatorError('ESTIMATOR_INVALID_CONFIG', `${file}: ${describeIssues(issues)}`, { issues });
  }
  return result.data.progress ?? { aiDriven: true, fallbackSteps: [] };
}
