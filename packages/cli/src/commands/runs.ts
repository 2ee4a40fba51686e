import type { Checkpoint, CheckpointSummary, RecoveryStrategy } from '@headway/runtime';
import { numberOption, parseCommand, showHelp, stringOption } from '../args.js';
import { terminalJson, terminalText } from '../terminal-text.js';
import { CliError, EXIT } from '../cli-error.js';
import { formatAge, formatUsd, table } from '../format.js';
import { ioClock, type CliIo } from '../io/cli-io.js';
import { openStores, STORE_URL_HELP, type OpenedStores } from '../store-url.js';

const RUNS_USAGE = 'headway runs list|show|resume|abandon [ID] [--all] --store sqlite:PATH|postgres://… [--json]';

const RUNS_HELP = `${RUNS_USAGE}

Runs in a checkpoint store (@headway/runtime's checkpoints): the ones a crash or a kill left
unfinished, with their age, iteration, spend and the suggested strategy (resume within 1 h, restart
within 24 h, abandon after: the runtime's default recovery policy).

Commands:
  list                 unfinished runs (--all: every run, finished ones too)
  show ID              one run: status, iteration, tokens, spend, tool calls in flight
  resume ID            checks that ID can be resumed and prints how (runtime.resume); exit 1 if not
  abandon ID | --all   marks an unfinished run (or, with --all, every one) abandoned

Options:
  ${STORE_URL_HELP}
  --all            list: finished runs too; abandon: every unfinished run
  --json           JSON instead of a table
  --resume-within MS, --restart-within MS   the recovery policy (default 3600000, 86400000)

Exit codes: 0 ok, 1 failed (no such run, a corrupt store, not resumable), 2 bad usage or store URL.

Examples:
  headway runs list --store sqlite:.headway/agent.db
  headway runs show 3f2a… --store sqlite:.headway/agent.db --json
  headway runs abandon --all --store postgres://localhost/agents`;

interface RunRow {
  id: string;
  runId: string;
  sessionId: string;
  taskId: string;
  status: CheckpointSummary['status'];
  ageMs: number;
  iteration: number;
  spentUsd: number;
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
      'resume-within': { type: 'string' },
      'restart-within': { type: 'string' },
    },
    RUNS_USAGE,
  );
  if (showHelp(values, RUNS_HELP, io)) return EXIT.ok;
  const [sub, id, ...rest] = positionals;
  if (sub === undefined) throw new CliError('CLI_USAGE', `runs needs list, show, resume or abandon\nusage: ${RUNS_USAGE}`);
  if (!['list', 'show', 'resume', 'abandon'].includes(sub))
    throw new CliError('CLI_USAGE', `unknown runs command ${terminalJson(sub)}\nusage: ${RUNS_USAGE}`);
  if (rest.length > 0 || (sub === 'list' && id !== undefined)) throw new CliError('CLI_USAGE', `too many arguments\nusage: ${RUNS_USAGE}`);
  if ((sub === 'show' || sub === 'resume' || (sub === 'abandon' && values.all !== true)) && id === undefined) {
    throw new CliError('CLI_USAGE', `runs ${sub} needs a run (checkpoint) ID${sub === 'abandon' ? ' or --all' : ''}\nusage: ${RUNS_USAGE}`);
  }
  const target = id ?? '';
  const resumeWithin = numberOption(values, 'resume-within', 3_600_000) ?? 3_600_000;
  const restartWithin = numberOption(values, 'restart-within', 86_400_000) ?? 86_400_000;
  const stores = await openStores(stringOption(values, 'store') ?? io.env.HEADWAY_STORE);
  try {
    const row = async (s: CheckpointSummary): Promise<RunRow> => {
      const full = await stores.checkpoints.load(s.id);
      const ageMs = Math.max(0, ioClock(io).now() - s.updatedAt);
      return {
        id: s.id,
        runId: s.runId,
        sessionId: s.sessionId,
        taskId: s.taskId,
        status: s.status,
        ageMs,
        iteration: s.iteration,
        spentUsd: full?.state.spentUsd ?? 0,
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
          const header = ['ID', 'SESSION', 'STATUS', 'AGE', 'ITERATION', 'SPENT', 'STRATEGY'];
          io.stdout.write(
            `${table([header, ...rows.map((r) => [r.id, r.sessionId, r.status, formatAge(r.ageMs), String(r.iteration), formatUsd(r.spentUsd), r.strategy ?? '-'])])}\n`,
          );
        }
        return EXIT.ok;
      }
      case 'show': {
        const cp = await load(stores, target);
        const r = await row(cp);
        if (values.json === true) {
          io.stdout.write(
            `${terminalJson({ ...r, messages: cp.messages.length, log: cp.log.length, toolCalls: cp.toolCalls, lastSeq: cp.lastSeq }, 2)}\n`,
          );
        } else {
          const lines = [
            `run ${r.id}  (runId ${r.runId}, session ${r.sessionId}, task ${r.taskId})`,
            `status     ${r.status}${r.error === undefined ? '' : ` — ${r.error}`}`,
            `updated    ${formatAge(r.ageMs)} ago`,
            `iteration  ${r.iteration}`,
            `tokens     ${r.inputTokens} in, ${r.outputTokens} out`,
            `spent      ${formatUsd(r.spentUsd)}`,
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

async function load(stores: OpenedStores, id: string): Promise<Checkpoint> {
  const cp = await stores.checkpoints.load(id);
  if (cp === undefined)
    throw new CliError('CLI_NOT_FOUND', `no run ${terminalJson(id)} in this store (headway runs list --all shows them)`);
  return cp;
}
