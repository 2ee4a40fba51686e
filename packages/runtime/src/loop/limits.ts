import type { LimitKind, ProgressEventBody, StopReason } from '@headway/protocol';
import type { SpendGuard } from '../cost/spend-guard.js';
import type { AgentConfig } from './agent-config.js';
import type { Clock } from './clock.js';
import { ConfigError } from './config-error.js';
import type { ReportInternalError } from './internal-error-context.js';
import type { RunState } from './run-state.js';
import { raceStop } from './stop-signal.js';
import type { TimeoutObserver } from './timeout-observer.js';

// Every way a run can stop for a limit is decided in this file: iterations, cost, a stall and the
// time budget each answer `{ approaching?, reached? }`; run-loop.ts asks them between iterations
// and carries the reason to the report.

/**
 * What one limit says at the boundary between iterations: the 80% warning (`limit.approaching`,
 * emitted once per limit) and, once the limit is reached, the reason the run stops with. The
 * reason is decided here, where the limit answers; the loop only carries it to the report.
 */
export interface LimitAnswer {
  /** The limit is close: `used` of `max` (iterations, ms or USD). */
  approaching?: { limit: LimitKind; used: number; max: number };
  /** The limit is reached: the run ends with this reason and a progress report. */
  reached?: StopReason;
}

/**
 * The iteration limit, asked as iteration `index` (0-based) begins. It warns before the last
 * iteration (from 80% of `max`, and at the latest one iteration ahead of it), never in the
 * iteration that reaches it: a run of one has no room to warn. The last iteration is reached:
 * it offers no tools and asks for the report.
 */
export function iterationLimit(index: number, max: number): LimitAnswer {
  if (index >= max - 1) return { reached: 'max-iterations' };
  if (index + 1 >= 0.8 * max || index + 2 >= max) return { approaching: { limit: 'iterations', used: index + 1, max } };
  return {};
}

/** The cost limit's answer, with what was spent of the budget (for `limit.reached`). */
interface CostAnswer extends LimitAnswer {
  spentUsd: number;
  budgetUsd: number;
}

/**
 * The cost limit of a session, asked before each model call (a session at or over its budget is
 * reached: the run stops before spending more) and after it (the spend so far may be close).
 */
export function costLimit(spend: SpendGuard, sessionId: string): CostAnswer {
  const at = spend.check(sessionId);
  const used = { spentUsd: at.spentUsd, budgetUsd: at.budgetUsd };
  if (at.status === 'exhausted')
    return { ...used, reached: 'cost-budget', approaching: { limit: 'cost', used: at.spentUsd, max: at.budgetUsd } };
  if (at.status === 'approaching') return { ...used, approaching: { limit: 'cost', used: at.spentUsd, max: at.budgetUsd } };
  return used;
}

/**
 * Stall detection as one more limit: once the run's stall policy answered `wind-down`
 * (`stalledWith` is what repeated), the run is reached with `stalled` and winds down like a
 * time limit, with one grace iteration for its report.
 */
export function stallLimit(stalledWith: string | undefined): LimitAnswer {
  return stalledWith === undefined ? {} : { reached: 'stalled' };
}

/**
 * What the time budget says when its clock says it (the 80% mark, the deadline, the end of the
 * wind-down), or when a stall starts the wind-down: a {@link LimitAnswer}, the events it makes
 * and whether the run stops now.
 */
export interface TimeAnswer extends LimitAnswer {
  /** The events the answer makes, in order: `limit.reached`, `wind-down.started`, `timeout.extended`. */
  say?: ProgressEventBody[];
  /**
   * The hard stop: the model call or tool in flight is aborted and the run ends now, with
   * `reached` (the one place the reason is decided).
   */
  stopNow?: true;
}

/** What a run's time budget reads: the run's settings, clock and state, and the `onTimeout` observer. */
export interface TimeBudgetOptions {
  config: AgentConfig;
  clock: Clock;
  /** The run's state: `startedAt`, `extendedMs` and the wind-down countdown are kept there (a checkpoint carries them). */
  state: RunState;
  onTimeout: TimeoutObserver | undefined;
  onInternalError: ReportInternalError;
}

/**
 * A run's time budget, on the run's {@link Clock}: the 80% warning, and at the deadline a hard
 * stop, a graceful wind-down (grace iterations, then a hard stop `hardStopAfterMs` later) or a
 * negotiation with an `onTimeout` observer that may grant extensions. Each of these is a
 * {@link TimeAnswer} handed to the run; the wind-down countdown lives here too: the loop asks
 * {@link TimeBudget.graceIteration} as each iteration begins.
 */
export class TimeBudget {
  readonly #options: TimeBudgetOptions;
  readonly #timers = new Set<unknown>();
  #deadline: unknown[] = [];
  #stop: AbortSignal = new AbortController().signal;
  #answer: (answer: TimeAnswer) => void = () => undefined;
  #ended = false;

  constructor(options: TimeBudgetOptions) {
    this.#options = options;
  }

  /**
   * Starts the clock of a run: from now on the budget's answers go to `answer`, until the run's
   * `stop` aborts or {@link end} is called. A resumed run that is already winding down keeps its course.
   */
  start(stop: AbortSignal, answer: (answer: TimeAnswer) => void): void {
    this.#stop = stop;
    this.#answer = answer;
    if (this.#options.config.timeBudgetMs === undefined || this.#options.state.windDown !== null) return;
    this.#scheduleDeadline();
  }

  /** The run has ended: no timer fires and a late answer of the observer changes nothing. */
  end(): void {
    this.#ended = true;
    for (const t of this.#timers) this.#options.clock.clearTimeout(t);
    this.#timers.clear();
  }

  /** Whether the run was stopped or has ended: late answers change nothing. */
  get #over(): boolean {
    return this.#ended || this.#stop.aborted;
  }

  #schedule(ms: number, fn: () => void): unknown {
    const handle = this.#options.clock.setTimeout(
      () => {
        this.#timers.delete(handle);
        if (this.#ended) return;
        fn();
      },
      Math.max(0, ms),
    );
    this.#timers.add(handle);
    return handle;
  }

  #unschedule(handle: unknown): void {
    this.#options.clock.clearTimeout(handle);
    this.#timers.delete(handle);
  }

  #scheduleDeadline(): void {
    const { config, clock, state } = this.#options;
    const budget = config.timeBudgetMs;
    if (budget === undefined) return;
    for (const t of this.#deadline) this.#unschedule(t);
    const total = budget + state.extendedMs;
    const elapsed = clock.now() - state.startedAt;
    this.#deadline = [
      this.#schedule(0.8 * total - elapsed, () => {
        this.#answer({ approaching: { limit: 'time', used: Math.round(clock.now() - state.startedAt), max: total } });
      }),
      this.#schedule(total - elapsed, () => {
        this.#onDeadline();
      }),
    ];
  }

  #onDeadline(): void {
    switch (this.#options.config.timeoutBehavior) {
      case 'hard':
        this.#answer({ reached: 'time-budget', say: [this.#timeLimitReached()], stopNow: true });
        return;
      case 'graceful':
        this.#beginWindDown('time-budget');
        return;
      case 'negotiated':
        void this.#negotiate();
        return;
    }
  }

  #timeLimitReached(): ProgressEventBody {
    const { config, clock, state } = this.#options;
    return {
      type: 'limit.reached',
      limit: 'time',
      used: Math.max(0, clock.now() - state.startedAt),
      max: (config.timeBudgetMs ?? 0) + state.extendedMs,
    };
  }

  /** Asks the `onTimeout` observer for more time: granted, the deadline moves; declined (or no answer in time), the run winds down. */
  async #negotiate(): Promise<void> {
    const { config, clock, state, onTimeout: observer } = this.#options;
    const budget = config.timeBudgetMs ?? 0;
    const remainingMs = Math.max(0, config.negotiatedTimeoutBudgetMs - state.extendedMs);
    let granted = 0;
    if (observer !== undefined && remainingMs > 0) {
      // An observer that does not answer within hardStopAfterMs has declined.
      const answer = new AbortController();
      const timer = this.#schedule(config.hardStopAfterMs, () => {
        answer.abort(new ConfigError('RUNTIME_CALLBACK_TIMEOUT', 'onTimeout did not answer in time'));
      });
      try {
        const reply = await raceStop<unknown>(
          Promise.resolve().then(() =>
            observer({
              elapsedMs: clock.now() - state.startedAt,
              budgetMs: budget,
              extendedMs: state.extendedMs,
              remainingMs,
              chunkMs: config.negotiatedExtensionMs,
              iteration: state.iteration,
              task: state.input,
              signal: answer.signal,
            }),
          ),
          this.#stop,
          answer.signal,
        );
        const asked = reply === true ? config.negotiatedExtensionMs : typeof reply === 'number' && Number.isFinite(reply) ? reply : 0;
        granted = Math.floor(Math.max(0, Math.min(asked, config.negotiatedExtensionMs, remainingMs)));
      } catch (error) {
        if (this.#over) return;
        this.#options.onInternalError(error, 'onTimeout');
      } finally {
        this.#unschedule(timer);
      }
    }
    if (this.#over) return;
    if (granted > 0) {
      state.extendedMs += granted;
      this.#answer({ say: [{ type: 'timeout.extended', byMs: granted, totalBudgetMs: budget + state.extendedMs }] });
      this.#scheduleDeadline();
    } else {
      this.#beginWindDown('negotiated-timeout');
    }
  }

  /** The deadline passed: the limit is reached, the run winds down, and `hardStopAfterMs` later it stops regardless. */
  #beginWindDown(reason: StopReason): void {
    if (this.#options.state.windDown !== null || this.#over) return;
    const reached = this.#timeLimitReached();
    const started = this.windDown(reason, this.#options.config.graceIterations);
    this.#answer({ reached: reason, say: [reached, ...(started.say ?? [])] });
    this.#schedule(this.#options.config.hardStopAfterMs, () => {
      this.#answer({ reached: reason, stopNow: true });
    });
  }

  /**
   * Starts the wind-down (once): `graceIterations` more iterations to write the report, answered
   * with `wind-down.started`. The deadline starts it; a stall the policy answered with
   * `wind-down` starts it too. A run already winding down answers nothing.
   */
  windDown(reason: StopReason, graceIterations: number): TimeAnswer {
    const { state, clock } = this.#options;
    if (state.windDown !== null) return {};
    state.windDown = { reason, startedAt: clock.now(), graceIterationsLeft: graceIterations, reportRequested: false };
    return { reached: reason, say: [{ type: 'wind-down.started', reason, graceIterations }] };
  }

  /**
   * Asked as an iteration begins, while the run winds down: counts one grace iteration off and
   * says whether the report is still to be asked for and whether this is the last one (which must
   * end in text: no tools). `undefined` while the run is not winding down.
   */
  graceIteration(): { reason: StopReason; requestReport: boolean; last: boolean } | undefined {
    const windDown = this.#options.state.windDown;
    if (windDown === null) return undefined;
    const requestReport = !windDown.reportRequested;
    windDown.reportRequested = true;
    windDown.graceIterationsLeft -= 1;
    return { reason: windDown.reason, requestReport, last: windDown.graceIterationsLeft <= 0 };
  }
}
