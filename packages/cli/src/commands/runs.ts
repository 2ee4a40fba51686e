import { describeRunEnd, runEndWord } from '@headway/protocol';
import { runEndOfCheckpoint } from '../run-end-of-checkpoint.js';
import { continuationPrompt } from '@headway/report';
import {
  checkpointRunInfo,
  readRunReport,
  unpricedCallsOf,
  type Checkpoint,
  type CheckpointSummary,
  type RecoveryStrategy,
} from '@headway/runtime';
import { join } from 'node:path';
import { numberOption, parseCommand, showHelp, stringOption } from '../args.js';
import { oneLine } from '@headway/protocol/internal';
import { terminalJson, terminalText } from '../terminal-text.js';
import { CliError, EXIT } from '../cli-error.js';
import { formatAge, formatSpent, table } from '../format.js';
import { ioClock, type CliIo } from '../io/cli-io.js';
import { openStores, STORE_URL_HELP, type OpenedStores } from '../store-url.js';

const RUNS_USAGE = 'headway runs list|show|resume|abandon|continue [ID] [--all] --store sqlite:PATH|postgres://… [--reports DIR] [--json]';

const RUNS_HELP = `${RUNS_USAGE}

Runs in a checkpoint store (@headway/runtime's checkpoints): the ones a crash or a kill left
unfinished, with their age, iteration, spend and the suggested strategy (resume within 1 h, restart
within 24 h, abandon after: the runtime's default recovery policy). ID is the run id that events
and logs print, or a checkpoint id.

Every run's STATUS is one word of one vocabulary: completed, limit:iterations / limit:time /
limit:cost (stopped at that limit, with a report), stalled, cancelled, failed, interrupted (left
unfinished: a crash or a kill, or still running in another process; resumable).

SPENT is what a run's priced calls cost; calls of a model with no price cost an unknown amount and
are not in it, which it says: $0.0100 (excludes 2 unpriced calls).

Commands:
  list                 unfinished runs (--all: every run, finished ones too)
  show ID              one run: status, task, the chain of continuations, iteration, tokens, spend,
                       tool calls in flight
  resume ID            checks that ID can be resumed and prints how (runtime.resume); exit 1 if not
  abandon ID | --all   marks an unfinished run (or, with --all, every one) abandoned
  continue ID          the prompt that continues run ID from its saved report (--reports DIR,
                       default .headway/reports: DIR/ID.json); needs no --store. The program that
                       owns the tools continues it as a run of its own:
                       runtime.continueRun(readRunReport(file))

Options:
  ${STORE_URL_HELP}
  --all            list: finished runs too; abandon: every unfinished run
  --json           JSON instead of a table
  --reports DIR    continue: where reports are kept (default .headway/reports)
  --resume-within MS, --restart-within MS   the recovery policy (default 3600000, 86400000)

Exit codes: 0 ok, 1 failed (no such run, a corrupt store, not resumable), 2 bad usage or store URL.

Examples:
  headway runs list --store sqlite:.headway/agent.db
  headway runs show 3f2a… --store sqlite:.headway/agent.db --json
  headway runs continue 3f2a… --reports .headway/reports
  headway runs abandon --all --store postgres://localhost/agents`;

interface RunRow {
  /** The checkpoint's id. */
  id: string;
  runId: string;
  /** The run this one continued (from its report). */
  parentRunId?: string;
  /** The task as people read it (a continuation's original task). */
  task: string;
  sessionId: string;
  taskId: string;
  /** How the run ended, as one word of the run-state vocabulary (`limit:iterations`); `interrupted` while unfinished. */
  status: string;
  /** The same in words (`stopped at its iteration limit`). */
  statusText: string;
  /** The checkpoint's own lifecycle (`running`, `completed`, `failed`, `abandoned`). */
  checkpointStatus: CheckpointSummary['status'];
  ageMs: number;
  iteration: number;
  /** What the run's priced calls cost (USD). */
  spentUsd: number;
  /** Calls of a model with no price: what they cost is unknown, so `spentUsd` leaves them out. */
  unpricedCalls: number;
  inputTokens: number;
  outputTokens: number;
  strategy?: RecoveryStrategy;
  error?: string;
}

/** What to do with an unfinished run of this age (the runtime's default policy: resume < 1 h, restart < 24 h). */
function suggestStrategy(ageMs: number, resumeWithinMs: number, restartWithinMs: number): RecoveryStrategy {
  if (ageMs < resumeWithinMs) return 'resume';
  if (ageMs < restartWithinMs) return 'restart';
  return 'abandon';
}

/** `headway runs`. */
export async function runsCommand(args: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommand(
    args,
    {
      store: { type: 'string' },
      all: { type: 'boolean' },
      json: { type: 'boolean' },
      reports: { type: 'string' },
      'resume-within': { type: 'string' },
      'restart-within': { type: 'string' },
    },
    RUNS_USAGE,
  );
  if (showHelp(values, RUNS_HELP, io)) return EXIT.ok;
  const [sub, id, ...rest] = positionals;
  if (sub === undefined) throw new CliError('CLI_USAGE', `runs needs list, show, resume, abandon or continue\nusage: ${RUNS_USAGE}`);
  if (!['list', 'show', 'resume', 'abandon', 'continue'].includes(sub))
    throw new CliError('CLI_USAGE', `unknown runs command ${terminalJson(sub)}\nusage: ${RUNS_USAGE}`);
  if (rest.length > 0 || (sub === 'list' && id !== undefined)) throw new CliError('CLI_USAGE', `too many arguments\nusage: ${RUNS_USAGE}`);
  if ((sub === 'show' || sub === 'resume' || sub === 'continue' || (sub === 'abandon' && values.all !== true)) && id === undefined) {
    throw new CliError('CLI_USAGE', `runs ${sub} needs a run ID${sub === 'abandon' ? ' or --all' : ''}\nusage: ${RUNS_USAGE}`);
  }
  const target = id ?? '';
  if (sub === 'continue')
    return continueFromReport(target, stringOption(values, 'reports') ?? join('.headway', 'reports'), values.json === true, io);
  const resumeWithin = numberOption(values, 'resume-within', 3_600_000) ?? 3_600_000;
  const restartWithin = numberOption(values, 'restart-within', 86_400_000) ?? 86_400_000;
  const stores = await openStores(stringOption(values, 'store') ?? io.env.HEADWAY_STORE);
  try {
    const row = async (s: CheckpointSummary): Promise<RunRow> => {
      const full = await stores.checkpoints.load(s.id);
      const ageMs = Math.max(0, ioClock(io).now() - s.updatedAt);
      const info = full === undefined ? undefined : checkpointRunInfo(full);
      const end = runEndOfCheckpoint(full, s);
      return {
        id: s.id,
        runId: s.runId,
        ...(info?.parentRunId === undefined ? {} : { parentRunId: info.parentRunId }),
        task: info?.task ?? '',
        sessionId: s.sessionId,
        taskId: s.taskId,
        status: runEndWord(end),
        statusText: describeRunEnd(end),
        checkpointStatus: s.status,
        ageMs,
        iteration: s.iteration,
        spentUsd: full?.state.spentUsd ?? 0,
        unpricedCalls: unpricedCallsOf(full?.state.costByModel),
        inputTokens: full?.state.usage.inputTokens ?? 0,
        outputTokens: full?.state.usage.outputTokens ?? 0,
        ...(s.status === 'running' ? { strategy: suggestStrategy(ageMs, resumeWithin, restartWithin) } : {}),
        ...(s.error === undefined ? {} : { error: s.error }),
      };
    };
    switch (sub) {
      case 'list': {
        const summaries = await stores.checkpoints.list(values.all === true ? {} : { status: 'running' });
        const rows = await Promise.all(summaries.map(row));
        if (values.json === true) {
          io.stdout.write(`${terminalJson(rows, 2)}\n`);
        } else if (rows.length === 0) {
          io.stdout.write(values.all === true ? 'no runs in this store\n' : 'no unfinished runs (--all lists finished ones too)\n');
        } else {
          const header = ['RUN', 'CHECKPOINT', 'SESSION', 'STATUS', 'AGE', 'ITERATION', 'SPENT', 'STRATEGY', 'CONTINUES'];
          const cells = rows.map((r) => [
            r.runId,
            r.id,
            r.sessionId,
            r.status,
            formatAge(r.ageMs),
            String(r.iteration),
            formatSpent(r.spentUsd, r.unpricedCalls),
            r.strategy ?? '-',
            r.parentRunId ?? '-',
          ]);
          io.stdout.write(`${table([header, ...cells])}\n`);
        }
        return EXIT.ok;
      }
      case 'show': {
        const cp = await load(stores, target);
        const r = await row(cp);
        const chain = await chainOf(stores, r, row);
        if (values.json === true) {
          io.stdout.write(
            `${terminalJson(
              {
                ...r,
                chain: chain.map((c) => ({ runId: c.runId, status: c.status })),
                messages: cp.messages.length,
                log: cp.log.length,
                toolCalls: cp.toolCalls,
                lastSeq: cp.lastSeq,
              },
              2,
            )}\n`,
          );
        } else {
          const lines = [
            `run ${r.runId}  (checkpoint ${r.id}, session ${r.sessionId}, task ${r.taskId})`,
            `task       ${oneLine(r.task)}`,
            `status     ${r.status} (${r.statusText})${r.error === undefined ? '' : ` — ${r.error}`}`,
            ...(chain.length > 1 ? [`chain      ${chain.map((c) => `${c.runId} ${c.status}`).join(' → ')}`] : []),
            `updated    ${formatAge(r.ageMs)} ago`,
            `iteration  ${r.iteration}`,
            `tokens     ${r.inputTokens} in, ${r.outputTokens} out`,
            `spent      ${formatSpent(r.spentUsd, r.unpricedCalls)}`,
            `messages   ${cp.messages.length}, tool-call log ${cp.log.length}, events to seq ${cp.lastSeq}`,
            ...cp.toolCalls.map((t) => `in flight  ${t.name} (${t.toolCallId}): ${t.status}`),
            ...(r.strategy === undefined ? [] : [`suggested  ${r.strategy}`]),
          ];
          io.stdout.write(`${lines.map(terminalText).join('\n')}\n`);
        }
        return EXIT.ok;
      }
      case 'resume': {
        const cp = await load(stores, target);
        const r = await row(cp);
        if (cp.status !== 'running') {
          io.stderr.write(`headway: run ${terminalText(cp.id)} is ${cp.status}: nothing to resume\n`);
          return EXIT.failed;
        }
        if (values.json === true) {
          io.stdout.write(
            `${terminalJson({ checkpointId: cp.id, runId: cp.runId, sessionId: cp.sessionId, iteration: cp.iteration, strategy: r.strategy })}\n`,
          );
        } else {
          io.stdout.write(
            `run ${terminalText(cp.id)} can be resumed from iteration ${cp.iteration} (suggested: ${r.strategy ?? 'resume'}).\n` +
              `Resume it in the program that owns its tools and provider:\n  await runtime.resume(${terminalJson(cp.id)});\n`,
          );
        }
        return EXIT.ok;
      }
      default: {
        const targets = values.all === true ? (await stores.checkpoints.list({ status: 'running' })).map((s) => s.id) : [target];
        if (values.all !== true) {
          const cp = await load(stores, target);
          if (cp.status !== 'running') {
            io.stderr.write(`headway: run ${terminalText(cp.id)} is ${cp.status}: only an unfinished run can be abandoned\n`);
            return EXIT.failed;
          }
        }
        for (const target of targets) await stores.checkpoints.abandon(target);
        io.stdout.write(
          values.json === true
            ? `${terminalJson({ abandoned: targets })}\n`
            : `abandoned ${targets.length} run${targets.length === 1 ? '' : 's'}\n`,
        );
        return EXIT.ok;
      }
    }
  } finally {
    await stores.close();
  }
}

/** The checkpoint of a run: by checkpoint id, else by run id (the one events and logs print), the latest written. */
async function load(stores: OpenedStores, id: string): Promise<Checkpoint> {
  const cp = (await stores.checkpoints.load(id)) ?? (await loadByRunId(stores, id));
  if (cp === undefined)
    throw new CliError('CLI_NOT_FOUND', `no run ${terminalJson(id)} in this store (headway runs list --all shows them)`);
  return cp;
}

async function loadByRunId(stores: OpenedStores, runId: string): Promise<Checkpoint | undefined> {
  const found = (await stores.checkpoints.list({})).filter((s) => s.runId === runId).sort((a, b) => b.updatedAt - a.updatedAt)[0];
  return found === undefined ? undefined : stores.checkpoints.load(found.id);
}

/** Most runs a chain of continuations shows (a longer one is cut at its oldest end). */
const MAX_CHAIN = 50;

/**
 * The chain a run is part of, oldest first: the runs it continued (by `parentRunId`), itself, and
 * the runs that continued it. A cycle or a missing parent ends the walk.
 */
async function chainOf(stores: OpenedStores, run: RunRow, row: (s: CheckpointSummary) => Promise<RunRow>): Promise<RunRow[]> {
  const all = await stores.checkpoints.list({});
  const byRun = new Map<string, CheckpointSummary>();
  for (const s of [...all].sort((a, b) => a.updatedAt - b.updatedAt)) byRun.set(s.runId, s);
  const seen = new Set([run.runId]);
  const before: RunRow[] = [];
  for (let parent = run.parentRunId; parent !== undefined && !seen.has(parent) && before.length < MAX_CHAIN;) {
    const summary = byRun.get(parent);
    if (summary === undefined) break;
    seen.add(parent);
    const r = await row(summary);
    before.unshift(r);
    parent = r.parentRunId;
  }
  const after: RunRow[] = [];
  const rows = new Map<string, RunRow>();
  for (let current = run.runId; after.length < MAX_CHAIN;) {
    let next: RunRow | undefined;
    for (const s of byRun.values()) {
      if (seen.has(s.runId)) continue;
      const r = rows.get(s.runId) ?? (await row(s));
      rows.set(s.runId, r);
      if (r.parentRunId === current) next = r;
    }
    if (next === undefined) break;
    seen.add(next.runId);
    after.push(next);
    current = next.runId;
  }
  return [...before, run, ...after];
}

/** `headway runs continue ID`: the continuation prompt of a run's saved report. */
function continueFromReport(runId: string, dir: string, json: boolean, io: CliIo): number {
  if (!/^[\da-z][\w.-]{0,199}$/i.test(runId)) throw new CliError('CLI_USAGE', `${terminalJson(runId)} is not a run id`);
  let stored;
  try {
    stored = readRunReport(join(dir, `${runId}.json`));
  } catch (error) {
    throw new CliError(
      'CLI_NOT_FOUND',
      `no report of run ${terminalJson(runId)}: ${error instanceof Error ? error.message : String(error)}`,
      {
        cause: error,
      },
    );
  }
  const prompt = continuationPrompt(stored.report);
  io.stdout.write(
    json
      ? `${terminalJson({ runId: stored.runId, ...(stored.parentRunId === undefined ? {} : { parentRunId: stored.parentRunId }), task: stored.report.task, prompt }, 2)}\n`
      : `${prompt}\n`,
  );
  return EXIT.ok;
}
