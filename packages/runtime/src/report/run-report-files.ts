import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describeIssues, progressReportSchema, toValidationIssues, type ProgressReport } from '@headway/protocol';
import { reportHasContent } from '@headway/report';
import { z } from 'zod';
import { ConfigError } from '../loop/config-error.js';
import type { RunResult } from '../loop/finish-run.js';

/** Name of the pointer file in a reports folder: the latest report with content. */
export const LATEST_REPORT_FILE = 'latest.json';

/** Largest report file read back (bytes): a report is a prompt, not a data dump. */
const MAX_REPORT_FILE_BYTES = 4 * 1024 * 1024;

/** A progress report as a reports folder keeps it: the report's fields plus the run it is of. */
export interface StoredRunReport {
  runId: string;
  /** The run the reported run continued, when it was a continuation. */
  parentRunId?: string;
  report: ProgressReport;
}

/** Where {@link saveRunReport} wrote a run's report. */
export interface SavedRunReport {
  /** `<dir>/<runId>.json`. */
  path: string;
  /** True when `latest.json` now points at it (the report has content). */
  latest: boolean;
}

const RUN_ID = /^[\da-z][\w.-]{0,199}$/i;

function writeAtomically(path: string, text: string): void {
  const tmp = `${path}.${process.pid.toString(36)}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

/**
 * Keeps a run's progress report under its run id, `<dir>/<runId>.json` (the report's fields plus
 * `runId` and `parentRunId`, so any reader of a report JSON reads it), and moves `<dir>/latest.json`
 * to it only when the report has content (`reportHasContent`): a run that failed before doing
 * anything never replaces the report to continue from. Writes are atomic (a temporary file,
 * renamed). A result without a report (a completed run) writes nothing and returns `undefined`.
 *
 * @throws {ConfigError} `RUNTIME_INVALID_CONTINUATION` when the run id cannot be a file name.
 * @example
 * ```ts
 * const result = await runtime.run(task);
 * const saved = saveRunReport('.headway/reports', result); // .headway/reports/<runId>.json
 * ```
 */
export function saveRunReport(dir: string, result: Pick<RunResult, 'runId' | 'report' | 'parentRunId'>): SavedRunReport | undefined {
  const { report } = result;
  if (report === undefined) return undefined;
  if (!RUN_ID.test(result.runId)) {
    throw new ConfigError('RUNTIME_INVALID_CONTINUATION', `run id ${JSON.stringify(result.runId.slice(0, 80))} cannot name a report file`);
  }
  mkdirSync(dir, { recursive: true });
  const text = `${JSON.stringify(
    { runId: result.runId, ...(result.parentRunId === undefined ? {} : { parentRunId: result.parentRunId }), ...report },
    null,
    2,
  )}\n`;
  const path = join(dir, `${result.runId}.json`);
  writeAtomically(path, text);
  // A run without work keeps its report under its own id only: latest stays on the last real one.
  const latest = reportHasContent(report);
  if (latest) writeAtomically(join(dir, LATEST_REPORT_FILE), text);
  return { path, latest };
}

const storedSchema = z.object({ runId: z.string().regex(RUN_ID), parentRunId: z.string().min(1).exactOptional() });

/**
 * Reads a saved report file (`<dir>/<runId>.json`, `<dir>/latest.json`, or any progress report
 * JSON) and validates it; a bare report without `runId` is read with `runId` taken from the file
 * name when that is a run id.
 *
 * @throws {ConfigError} `RUNTIME_INVALID_CONTINUATION` saying what is wrong and where (a missing
 * file, bad JSON, an invalid report field).
 */
export function readRunReport(path: string): StoredRunReport {
  let raw: unknown;
  try {
    const text = readFileSync(path, 'utf8');
    if (text.length > MAX_REPORT_FILE_BYTES) throw new RangeError(`larger than ${MAX_REPORT_FILE_BYTES} bytes`); // wrapped below
    raw = JSON.parse(text);
  } catch (error) {
    throw new ConfigError('RUNTIME_INVALID_CONTINUATION', `${path}: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
  const report = progressReportSchema.safeParse(raw);
  if (!report.success) {
    const issues = toValidationIssues(report.error);
    throw new ConfigError('RUNTIME_INVALID_CONTINUATION', `${path}: not a progress report: ${describeIssues(issues)}`, { issues });
  }
  const ids = storedSchema.safeParse(raw);
  const fromName = basename(path).endsWith('.json') ? basename(path).slice(0, -'.json'.length) : undefined;
  const runId = ids.success
    ? ids.data.runId
    : fromName !== undefined && fromName !== 'latest' && RUN_ID.test(fromName)
      ? fromName
      : undefined;
  if (runId === undefined) {
    throw new ConfigError('RUNTIME_INVALID_CONTINUATION', `${path}: no runId: the report does not say which run it is of`, {
      issues: [{ path: 'runId', message: 'expected the id of the run the report is of' }],
    });
  }
  return {
    runId,
    ...(ids.success && ids.data.parentRunId !== undefined ? { parentRunId: ids.data.parentRunId } : {}),
    report: report.data,
  };
}
