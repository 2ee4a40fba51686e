import type { IncomingMessage } from 'node:http';
import type { CheckpointStore, CheckpointSummary, RunRequest, RunRequestStore } from '@headway/runtime';
import { z } from 'zod';
import { DashboardError } from './dashboard-error.js';
import { dashboardRun, type ReadDashboardRunsOptions } from './dashboard-runs.js';

/** The actions `POST /api/runs/<id>/<action>` takes. */
export type DashboardAction = 'continue' | 'resume' | 'abandon' | 'cancel';

/** What an action answers: `abandoned` at once, or the request a worker will carry out. */
export type DashboardActionResult =
  | { action: 'abandon'; runId: string; abandoned: true }
  | { action: Exclude<DashboardAction, 'abandon'>; runId: string; request: RunRequest; created: boolean };

/** The largest action body read (bytes): an action takes no parameters, so `{}` is all it needs. */
const MAX_BODY_BYTES = 1_024;

/** An action's body: empty, or an empty JSON object (room for options later, refused until then). */
const bodySchema = z.strictObject({});

/** The states a run may be continued from: it stopped short and handed over a report. */
const CONTINUABLE = new Set(['limit:iterations', 'limit:time', 'limit:cost', 'stalled', 'cancelled', 'failed']);

/**
 * Reads an action's body (at most {@link MAX_BODY_BYTES}) and validates it: nothing, or `{}`.
 *
 * @throws {DashboardError} `DASHBOARD_BAD_REQUEST` naming what is wrong.
 */
async function readActionBody(req: IncomingMessage): Promise<void> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) {
      throw new DashboardError('DASHBOARD_BAD_REQUEST', `bad body: larger than ${MAX_BODY_BYTES} bytes`, {
        issues: [{ path: 'body', message: `larger than ${MAX_BODY_BYTES} bytes` }],
      });
    }
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8').trim();
  if (text === '') return;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new DashboardError('DASHBOARD_BAD_REQUEST', 'bad body: not JSON', { issues: [{ path: 'body', message: 'not JSON' }] });
  }
  const parsed = bodySchema.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 20).map((issue) => ({
      path: ['body', ...issue.path.map(String)].join('.').slice(0, 200),
      message: issue.message.slice(0, 200),
    }));
    throw new DashboardError('DASHBOARD_BAD_REQUEST', `bad body: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`, { issues });
  }
}

function conflict(runId: string, state: string, what: string): DashboardError {
  return new DashboardError('DASHBOARD_CONFLICT', `run ${runId} is ${state}: ${what}`);
}

/**
 * Takes one action on a run, after the caller checked the token and the origin. Abandon is done
 * here (the checkpoint is marked abandoned); Continue, Resume and Cancel are written as requests
 * a worker claims (`createRunRequestWorker`), each under a key that makes a repeat (a double
 * click, two tabs, two web processes) the same request: one follow-up per run, one resume per
 * interruption, one cancel per run. A repeat that arrives after a worker took the request up (the
 * run is no longer interrupted or running) answers that request too, with `created: false`.
 *
 * @throws {DashboardError} `DASHBOARD_BAD_REQUEST` (body), `DASHBOARD_NOT_FOUND` (no such run),
 * `DASHBOARD_CONFLICT` (the action does not apply to the run's state),
 * `DASHBOARD_UNAVAILABLE` (no request channel: the store keeps none).
 */
export async function takeRunAction(
  req: IncomingMessage,
  action: DashboardAction,
  id: string,
  context: { checkpoints: CheckpointStore; requests: RunRequestStore | undefined; read: ReadDashboardRunsOptions },
): Promise<DashboardActionResult> {
  await readActionBody(req);
  const { checkpoints, requests } = context;
  const summaries = await checkpoints.list({});
  const summary: CheckpointSummary | undefined = summaries.find((s) => s.id === id) ?? summaries.findLast((s) => s.runId === id);
  if (summary === undefined) throw new DashboardError('DASHBOARD_NOT_FOUND', `no run ${JSON.stringify(id)}`);
  const checkpoint = await checkpoints.load(summary.id);
  const run = dashboardRun(summary, checkpoint, context.read);
  if (action === 'abandon') {
    if (run.state !== 'interrupted') throw conflict(run.runId, run.state, 'only an interrupted run can be abandoned');
    await checkpoints.abandon(summary.id);
    return { action, runId: summary.runId, abandoned: true };
  }
  const applies =
    action === 'resume' ? run.state === 'interrupted' : action === 'cancel' ? run.state === 'running' : CONTINUABLE.has(run.state);
  if (!applies) {
    // A repeat that arrives after a worker took the request up (the run resumed, cancelled): the same request.
    const earlier =
      requests === undefined ? undefined : (await requests.list({ runId: summary.runId })).findLast((r) => r.action === action);
    if (earlier !== undefined) return { action, runId: summary.runId, request: earlier, created: false };
    throw conflict(
      run.runId,
      run.state,
      action === 'resume'
        ? 'only an interrupted run can be resumed'
        : action === 'cancel'
          ? 'only a running run can be cancelled'
          : 'only a run that stopped short (a limit, a stall, cancelled, failed) can be continued',
    );
  }
  // One resume per interruption (a run resumed and interrupted again has a newer last write), one
  // cancel per run, one follow-up per run.
  const key =
    action === 'resume'
      ? `resume:${summary.id}:${String(summary.updatedAt)}`
      : action === 'cancel'
        ? `cancel:${summary.runId}`
        : `continue:${summary.runId}`;
  if (requests === undefined) {
    throw new DashboardError('DASHBOARD_UNAVAILABLE', `this store keeps no request channel: ${action} needs a worker to claim it`);
  }
  const { request, created } = await requests.put({ key, action, runId: summary.runId, checkpointId: summary.id });
  return { action, runId: summary.runId, request, created };
}
