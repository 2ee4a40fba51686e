import type { IncomingMessage } from 'node:http';
import type { Checkpoint, CheckpointStore, CheckpointSummary, RunRequest, RunRequestStore } from '@headway/runtime';
import { z } from 'zod';
import { DashboardError } from './dashboard-error.js';
import type { DashboardAction, DashboardRun } from './dashboard-run-types.js';

/** The states a run may be continued from: it stopped short and handed over a report. */
const CONTINUABLE = new Set(['limit:iterations', 'limit:time', 'limit:cost', 'stalled', 'cancelled', 'failed']);

/**
 * The one table of which action applies to a run in which state, in the order the page offers
 * them, and what the server answers (409) when asked for one that does not apply. The list and
 * the run page are sent each run's `actions` from it, so the page never decides on its own.
 */
const ACTION_RULES: readonly { action: DashboardAction; appliesTo: (state: string) => boolean; refusal: string }[] = [
  {
    action: 'continue',
    appliesTo: (state) => CONTINUABLE.has(state),
    refusal: 'only a run that stopped short (a limit, a stall, cancelled, failed) can be continued',
  },
  { action: 'resume', appliesTo: (state) => state === 'interrupted', refusal: 'only an interrupted run can be resumed' },
  { action: 'cancel', appliesTo: (state) => state === 'running', refusal: 'only a running run can be cancelled' },
  { action: 'abandon', appliesTo: (state) => state === 'interrupted', refusal: 'only an interrupted run can be abandoned' },
];

/**
 * The actions a run in `state` (a {@link DashboardRun}'s `state` word) offers, in the order the
 * page shows them: `['resume', 'abandon']` for an interrupted run, `['cancel']` for a running one,
 * `['continue']` for one that stopped short, none for a completed one.
 */
export function allowedActions(state: string): DashboardAction[] {
  return ACTION_RULES.filter((rule) => rule.appliesTo(state)).map((rule) => rule.action);
}

function refusalOf(action: DashboardAction): string {
  return ACTION_RULES.find((rule) => rule.action === action)?.refusal ?? 'it does not apply';
}

/** What an action answers: `abandoned` at once, or the request a worker will carry out. */
export type DashboardActionResult =
  | { action: 'abandon'; runId: string; abandoned: true }
  | { action: Exclude<DashboardAction, 'abandon'>; runId: string; request: RunRequest; created: boolean };

/** The largest action body read (bytes): an action takes no parameters, so `{}` is all it needs. */
const MAX_BODY_BYTES = 1_024;

/** An action's body: empty, or an empty JSON object (room for options later, refused until then). */
const bodySchema = z.strictObject({});

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
  context: {
    checkpoints: CheckpointStore;
    requests: RunRequestStore | undefined;
    /** The run as the list shows it (its state and `actions`): `dashboardRun` with the server's options. */
    runOf: (summary: CheckpointSummary, checkpoint: Checkpoint | undefined) => DashboardRun;
  },
): Promise<DashboardActionResult> {
  await readActionBody(req);
  const { checkpoints, requests } = context;
  const summaries = await checkpoints.list({});
  const summary: CheckpointSummary | undefined = summaries.find((s) => s.id === id) ?? summaries.findLast((s) => s.runId === id);
  if (summary === undefined) throw new DashboardError('DASHBOARD_NOT_FOUND', `no run ${JSON.stringify(id)}`);
  const checkpoint = await checkpoints.load(summary.id);
  const run = context.runOf(summary, checkpoint);
  const applies = run.actions.includes(action);
  if (action === 'abandon') {
    if (!applies) throw conflict(run.runId, run.state, refusalOf(action));
    await checkpoints.abandon(summary.id);
    return { action, runId: summary.runId, abandoned: true };
  }
  if (!applies) {
    // A repeat that arrives after a worker took the request up (the run resumed, cancelled): the same request.
    const earlier =
      requests === undefined ? undefined : (await requests.list({ runId: summary.runId })).findLast((r) => r.action === action);
    if (earlier !== undefined) return { action, runId: summary.runId, request: earlier, created: false };
    throw conflict(run.runId, run.state, refusalOf(action));
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
