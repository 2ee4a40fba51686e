import { runEndWord } from '@headway/protocol';
import { parseCommand, showHelp, stringOption } from '../args.js';
import { runEndOfCheckpoint } from '../run-end-of-checkpoint.js';
import { terminalJson, terminalText } from '../terminal-text.js';
import { CliError, EXIT } from '../cli-error.js';
import { formatSpent, formatUsd, table } from '../format.js';
import type { CliIo } from '../io/cli-io.js';
import { openStores, STORE_URL_HELP, type OpenedStores } from '../store-url.js';
import { unpricedCallsOf } from '@headway/runtime';

const COST_USAGE = 'headway cost [--session ID] --store sqlite:PATH|postgres://… [--budget USD] [--json]';

const COST_HELP = `${COST_USAGE}

Spend per session from the session store (@headway/runtime's sessions: dollars, provider calls,
runs), and with --session the runs of that session from the checkpoint store (tokens and dollars
of each). The stores record no budget: pass --budget to see what is left.

SPENT is what the priced calls cost. Calls of a model with no price cost an unknown amount and are
not in it, which it says, as the dashboard does: $0.5123 (excludes 3 unpriced calls). They are
counted from the runs' checkpoints (cost by model), so a run whose checkpoint was not kept is not.

Options:
  ${STORE_URL_HELP}
  --session ID     one session, run by run
  --budget USD     the per-session budget, to show what is left of it
  --json           JSON instead of a table

Exit codes: 0 ok, 1 failed (no such session, a corrupt store), 2 bad usage or store URL.

Examples:
  headway cost --store sqlite:.headway/agent.db
  headway cost --session s-42 --budget 2 --store sqlite:.headway/agent.db --json`;

/** Calls of unknown cost per session, from every run's checkpoint (its cost by model). */
async function unpricedBySession(stores: OpenedStores): Promise<Map<string, number>> {
  const bySession = new Map<string, number>();
  for (const s of await stores.checkpoints.list({})) {
    const n = unpricedCallsOf((await stores.checkpoints.load(s.id))?.state.costByModel);
    if (n > 0) bySession.set(s.sessionId, (bySession.get(s.sessionId) ?? 0) + n);
  }
  return bySession;
}

/** `headway cost`. */
export async function costCommand(args: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommand(
    args,
    { store: { type: 'string' }, session: { type: 'string' }, budget: { type: 'string' }, json: { type: 'boolean' } },
    COST_USAGE,
  );
  if (showHelp(values, COST_HELP, io)) return EXIT.ok;
  if (positionals.length > 0) throw new CliError('CLI_USAGE', `cost takes no arguments, only options\nusage: ${COST_USAGE}`);
  const budgetText = stringOption(values, 'budget');
  const budget = budgetText === undefined ? undefined : Number(budgetText);
  if (budget !== undefined && !(Number.isFinite(budget) && budget >= 0))
    throw new CliError('CLI_USAGE', `--budget: expected dollars ≥ 0, got ${terminalJson(budgetText)}`);
  const stores = await openStores(stringOption(values, 'store') ?? io.env.HEADWAY_STORE);
  try {
    const sessions = stores.sessions;
    if (sessions === undefined) throw new CliError('CLI_NOT_FOUND', 'this store keeps no sessions');
    const left = (spent: number): { leftUsd?: number } => (budget === undefined ? {} : { leftUsd: Math.max(0, budget - spent) });
    const sessionId = stringOption(values, 'session');
    if (sessionId === undefined) {
      const list = await sessions.list();
      const unpriced = list.length === 0 ? new Map<string, number>() : await unpricedBySession(stores);
      const rows = list.map((s) => ({
        sessionId: s.id,
        spentUsd: s.spentUsd,
        unpricedCalls: unpriced.get(s.id) ?? 0,
        calls: s.calls,
        runs: s.runs,
        updatedAt: s.updatedAt,
        ...left(s.spentUsd),
      }));
      const total = rows.reduce((sum, r) => sum + r.spentUsd, 0);
      const totalUnpriced = rows.reduce((sum, r) => sum + r.unpricedCalls, 0);
      if (values.json === true) {
        io.stdout.write(
          `${terminalJson(
            { sessions: rows, totalUsd: total, unpricedCalls: totalUnpriced, ...(budget === undefined ? {} : { budgetUsd: budget }) },
            2,
          )}\n`,
        );
        return EXIT.ok;
      }
      if (rows.length === 0) {
        io.stdout.write('no sessions in this store\n');
        return EXIT.ok;
      }
      const header = ['SESSION', 'RUNS', 'CALLS', 'SPENT', ...(budget === undefined ? [] : ['LEFT'])];
      const body = rows.map((r) => [
        r.sessionId,
        String(r.runs),
        String(r.calls),
        formatSpent(r.spentUsd, r.unpricedCalls),
        ...(r.leftUsd === undefined ? [] : [formatUsd(r.leftUsd)]),
      ]);
      io.stdout.write(
        `${table([header, ...body])}\ntotal ${formatSpent(total, totalUnpriced)} over ${rows.length} session${rows.length === 1 ? '' : 's'}\n`,
      );
      return EXIT.ok;
    }
    const session = await sessions.get(sessionId);
    if (session === undefined)
      throw new CliError('CLI_NOT_FOUND', `no session ${terminalJson(sessionId)} in this store (headway cost lists them)`);
    const runs = [];
    for (const s of await stores.checkpoints.list({ sessionId })) {
      const cp = await stores.checkpoints.load(s.id);
      runs.push({
        id: s.id,
        runId: s.runId,
        status: runEndWord(runEndOfCheckpoint(cp, s)),
        iteration: s.iteration,
        inputTokens: cp?.state.usage.inputTokens ?? 0,
        outputTokens: cp?.state.usage.outputTokens ?? 0,
        spentUsd: cp?.state.spentUsd ?? 0,
        unpricedCalls: unpricedCallsOf(cp?.state.costByModel),
        calls: cp?.state.providerCalls ?? 0,
      });
    }
    const sessionUnpriced = runs.reduce((sum, r) => sum + r.unpricedCalls, 0);
    const summary = {
      sessionId,
      spentUsd: session.spentUsd,
      unpricedCalls: sessionUnpriced,
      calls: session.calls,
      runs,
      ...left(session.spentUsd),
      ...(budget === undefined ? {} : { budgetUsd: budget }),
    };
    if (values.json === true) {
      io.stdout.write(`${terminalJson(summary, 2)}\n`);
      return EXIT.ok;
    }
    const header = ['RUN', 'CHECKPOINT', 'STATUS', 'ITERATION', 'CALLS', 'TOKENS IN', 'TOKENS OUT', 'SPENT'];
    const body = runs.map((r) => [
      r.runId,
      r.id,
      r.status,
      String(r.iteration),
      String(r.calls),
      String(r.inputTokens),
      String(r.outputTokens),
      formatSpent(r.spentUsd, r.unpricedCalls),
    ]);
    const budgetLine =
      budget === undefined ? '' : `, budget ${formatUsd(budget)}, left ${formatUsd(Math.max(0, budget - session.spentUsd))}`;
    io.stdout.write(
      `session ${terminalText(sessionId)}: ${formatSpent(session.spentUsd, sessionUnpriced)} over ${session.calls} calls in ${session.runs} runs${budgetLine}\n` +
        (runs.length === 0 ? 'no checkpoints kept for its runs\n' : `${table([header, ...body])}\n`),
    );
    return EXIT.ok;
  } finally {
    await stores.close();
  }
}
