import { describe, expect, it } from 'vitest';
import type { SpendGuard } from '../cost/spend-guard.js';
import { parseAgentConfig, type AgentConfigInput } from './agent-config.js';
import { ManualClock } from './clock.js';
import { TimeBudget, costLimit, iterationLimit, stallLimit, type TimeAnswer } from './limits.js';
import type { RuntimeErrorWhere } from './internal-error-context.js';
import { freshRunState } from './loop-context.js';
import type { RunState } from './run-state.js';
import type { TimeoutObserver } from './timeout-observer.js';

describe('iterationLimit', () => {
  it('warns from 80% of the cap, at the latest one iteration ahead, and is reached on the last iteration', () => {
    const answers = Array.from({ length: 10 }, (_, index) => iterationLimit(index, 10));
    expect(answers).toEqual([
      {},
      {},
      {},
      {},
      {},
      {},
      {},
      { approaching: { limit: 'iterations', used: 8, max: 10 } },
      { approaching: { limit: 'iterations', used: 9, max: 10 } },
      { reached: 'max-iterations' },
    ]);
  });

  it('gives a run of one no room to warn, and warns a run of two one iteration ahead', () => {
    expect(iterationLimit(0, 1)).toEqual({ reached: 'max-iterations' });
    expect([iterationLimit(0, 2), iterationLimit(1, 2)]).toEqual([
      { approaching: { limit: 'iterations', used: 1, max: 2 } },
      { reached: 'max-iterations' },
    ]);
  });

  it('never reaches an unbounded cap', () => {
    expect(iterationLimit(1_000_000, Infinity)).toEqual({});
  });
});

describe('costLimit', () => {
  const guard = (status: 'ok' | 'approaching' | 'exhausted'): SpendGuard => ({
    record: () => ({ costUsd: 0, model: 'm' }),
    check: () => ({ status, spentUsd: 0.9, budgetUsd: 1, unpricedCalls: 0 }),
  });

  it('answers with the spend, a warning when close, and the cost-budget reason when at the cap', () => {
    expect(costLimit(guard('ok'), 's1')).toEqual({ spentUsd: 0.9, budgetUsd: 1 });
    expect(costLimit(guard('approaching'), 's1')).toEqual({
      spentUsd: 0.9,
      budgetUsd: 1,
      approaching: { limit: 'cost', used: 0.9, max: 1 },
    });
    expect(costLimit(guard('exhausted'), 's1')).toEqual({
      spentUsd: 0.9,
      budgetUsd: 1,
      approaching: { limit: 'cost', used: 0.9, max: 1 },
      reached: 'cost-budget',
    });
  });
});

describe('stallLimit', () => {
  it('is reached with `stalled` once the stall policy chose to wind down', () => {
    expect(stallLimit(undefined)).toEqual({});
    expect(stallLimit('ls src/work 5× with the same result')).toEqual({ reached: 'stalled' });
  });
});

describe('TimeBudget', () => {
  interface Setup {
    budget: TimeBudget;
    clock: ManualClock;
    state: RunState;
    answers: TimeAnswer[];
    failures: [string, RuntimeErrorWhere][];
    stop: AbortController;
  }

  function setup(config: Partial<AgentConfigInput>, onTimeout?: TimeoutObserver, start = true): Setup {
    const clock = new ManualClock({ start: 1_000 });
    const parsed = parseAgentConfig({ provider: 'scripted', timeBudgetMs: 10_000, hardStopAfterMs: 3_000, graceIterations: 2, ...config });
    const state = freshRunState({ config: parsed, runId: 'r1', sessionId: 's1', input: 'task', startedAt: clock.now(), history: [] });
    const failures: [string, RuntimeErrorWhere][] = [];
    const budget = new TimeBudget({
      config: parsed,
      clock,
      state,
      onTimeout,
      onInternalError: (error, where) => failures.push([String(error), where]),
    });
    const answers: TimeAnswer[] = [];
    const stop = new AbortController();
    if (start) budget.start(stop.signal, (answer) => answers.push(answer));
    return { budget, clock, state, answers, failures, stop };
  }

  it('graceful: warns at 80%, winds down at the deadline with grace iterations, then stops hard', () => {
    const { budget, clock, answers } = setup({ timeoutBehavior: 'graceful' });
    expect(budget.graceIteration()).toBeUndefined();
    clock.advanceSync(7_999);
    expect(answers).toEqual([]);
    clock.advanceSync(1);
    expect(answers).toEqual([{ approaching: { limit: 'time', used: 8_000, max: 10_000 } }]);
    clock.advanceSync(2_000);
    expect(answers.slice(1)).toEqual([
      {
        reached: 'time-budget',
        say: [
          { type: 'limit.reached', limit: 'time', used: 10_000, max: 10_000 },
          { type: 'wind-down.started', reason: 'time-budget', graceIterations: 2 },
        ],
      },
    ]);
    expect(budget.graceIteration()).toEqual({ reason: 'time-budget', requestReport: true, last: false });
    expect(budget.graceIteration()).toEqual({ reason: 'time-budget', requestReport: false, last: true });
    clock.advanceSync(2_999);
    expect(answers).toHaveLength(2);
    clock.advanceSync(1);
    expect(answers.at(-1)).toEqual({ reached: 'time-budget', stopNow: true });
  });

  it('hard: the deadline stops the run now, with the time-budget reason', () => {
    const { clock, answers } = setup({ timeoutBehavior: 'hard' });
    clock.advanceSync(10_000);
    expect(answers).toEqual([
      { approaching: { limit: 'time', used: 8_000, max: 10_000 } },
      { reached: 'time-budget', say: [{ type: 'limit.reached', limit: 'time', used: 10_000, max: 10_000 }], stopNow: true },
    ]);
  });

  it('negotiated: an extension moves the deadline; a refusal winds down with negotiated-timeout', async () => {
    const asked: number[] = [];
    const { clock, state, answers } = setup({ timeoutBehavior: 'negotiated', negotiatedExtensionMs: 4_000 }, (request) => {
      asked.push(request.elapsedMs);
      return asked.length === 1 ? 4_000 : false;
    });
    await clock.advance(10_000);
    expect(answers.slice(1)).toEqual([{ say: [{ type: 'timeout.extended', byMs: 4_000, totalBudgetMs: 14_000 }] }]);
    expect(state.extendedMs).toBe(4_000);
    await clock.advance(4_000);
    expect(asked).toEqual([10_000, 14_000]);
    expect(answers.slice(2)).toEqual([
      { approaching: { limit: 'time', used: 11_200, max: 14_000 } },
      {
        reached: 'negotiated-timeout',
        say: [
          { type: 'limit.reached', limit: 'time', used: 14_000, max: 14_000 },
          { type: 'wind-down.started', reason: 'negotiated-timeout', graceIterations: 2 },
        ],
      },
    ]);
  });

  it('negotiated: an observer that throws is reported and counts as a refusal', async () => {
    const { clock, answers, failures } = setup({ timeoutBehavior: 'negotiated' }, () => {
      throw new Error('observer broke');
    });
    await clock.advance(10_000);
    expect(failures).toEqual([['Error: observer broke', 'onTimeout']]);
    expect(answers.at(-1)).toMatchObject({ reached: 'negotiated-timeout' });
  });

  it('answers nothing once the run is stopped or ended, even to a late observer', async () => {
    let grant: (ms: number) => void = () => undefined;
    const { clock, answers, stop, budget } = setup(
      { timeoutBehavior: 'negotiated' },
      () => new Promise<number>((resolve) => (grant = resolve)),
    );
    await clock.advance(10_000);
    expect(answers).toHaveLength(1);
    stop.abort();
    budget.end();
    grant(1_000);
    await clock.advance(60_000);
    expect(answers).toHaveLength(1);
  });

  it('a stall starts the wind-down once; a resumed run already winding down keeps its course', () => {
    const { budget, clock, answers, state } = setup({ timeoutBehavior: 'graceful' }, undefined, false);
    expect(budget.windDown('stalled', 1)).toEqual({
      reached: 'stalled',
      say: [{ type: 'wind-down.started', reason: 'stalled', graceIterations: 1 }],
    });
    expect(budget.windDown('time-budget', 2)).toEqual({});
    budget.start(new AbortController().signal, (answer) => answers.push(answer));
    clock.advanceSync(60_000);
    expect(answers).toEqual([]);
    expect(state.windDown).toEqual({ reason: 'stalled', startedAt: 1_000, graceIterationsLeft: 1, reportRequested: false });
    expect(budget.graceIteration()).toEqual({ reason: 'stalled', requestReport: true, last: true });
  });
});
