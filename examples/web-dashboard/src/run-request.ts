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

/** A request body rejected, with a message naming the field and the problem. */
export type RunRequestResult = { ok: true; request: RunRequest } | { ok: false; message: string };

/** Validates the JSON body of `POST /api/runs` (it comes from the network: trust nothing). */
export function parseRunRequest(body: string): RunRequestResult {
  let value: unknown;
  try {
    value = body.trim() === '' ? {} : JSON.parse(body);
  } catch (error) {
    return { ok: false, message: `body: not JSON (${(error as Error).message})` };
  }
  const parsed = runRequestSchema.safeParse(value);
  if (!parsed.success) return { ok: false, message: describeIssues(toValidationIssues(parsed.error)) };
  return { ok: true, request: parsed.data };
}
