import { describeIssues, toValidationIssues } from '@headway/protocol';
import { z } from 'zod';

/** What `POST /api/runs` accepts. */
export interface RunRequest {
  /** The task (default: the scripted model's task). */
  task?: string;
  /** Iteration cap, 1–50 (default 10); a small one stops the run with a PROGRESS REPORT. */
  maxIterations?: number;
  /** `scripted` (default) or `openai` (needs OPENAI_API_KEY on the server). */
  provider?: 'scripted' | 'openai';
  /** Wall-clock budget in ms; when it runs out the run winds down and reports. */
  timeBudgetMs?: number;
}

const runRequestSchema: z.ZodType<RunRequest> = z.strictObject({
  task: z.string().trim().min(1).max(2000).exactOptional(),
  maxIterations: z.number().int().min(1).max(50).exactOptional(),
  provider: z.enum(['scripted', 'openai']).exactOptional(),
  timeBudgetMs: z.number().int().min(500).max(3_600_000).exactOptional(),
});

/** What `POST /api/runs/<id>/continue` accepts: the follow-up run's iteration cap. */
export interface ContinueRequest {
  /** Iteration cap of the follow-up run, 1–50 (default 10). */
  maxIterations?: number;
}

const continueRequestSchema: z.ZodType<ContinueRequest> = z.strictObject({
  maxIterations: z.number().int().min(1).max(50).exactOptional(),
});

/** A request body accepted, or rejected with a message naming the field and the problem. */
export type BodyResult<T> = { ok: true; request: T } | { ok: false; message: string };

/** The result of {@link parseRunRequest}. */
export type RunRequestResult = BodyResult<RunRequest>;

function parseBody<T>(schema: z.ZodType<T>, body: string): BodyResult<T> {
  let value: unknown;
  try {
    value = body.trim() === '' ? {} : JSON.parse(body);
  } catch (error) {
    return { ok: false, message: `body: not JSON (${(error as Error).message})` };
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) return { ok: false, message: describeIssues(toValidationIssues(parsed.error)) };
  return { ok: true, request: parsed.data };
}

/** Validates the JSON body of `POST /api/runs` (it comes from the network: trust nothing). */
export function parseRunRequest(body: string): RunRequestResult {
  return parseBody(runRequestSchema, body);
}

/** Validates the JSON body of `POST /api/runs/<id>/continue`. */
export function parseContinueRequest(body: string): BodyResult<ContinueRequest> {
  return parseBody(continueRequestSchema, body);
}
