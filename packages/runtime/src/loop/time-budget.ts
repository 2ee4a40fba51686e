import type { LimitKind, ProgressEventBody, StopReason } from '@headway/protocol';
import type { AgentConfig } from './agent-config.js';
import { ConfigError } from './config-error.js';
import type { Clock } from './clock.js';
import type { RunState } from './run-state.js';
import type { Stop } from './stop-signal.js';
import type { TimeoutObserver } from './timeout-observer.js';

/** What the time budget needs from its run. */
export interface TimeBudgetHost {
  config: AgentConfig;
  clock: Clock;
  state: RunState;
  onTimeout: TimeoutObserver | undefined;
  onInternalError: (error: unknown, where: string) => void;
  emit: (body: ProgressEventBody) => void;
  approach: (limit: LimitKind, used: number, max: number) => void;
  halt: (stop: Stop) => void;
  /** Runs `fn` after `ms` unless the run has ended; returns the timer handle. */
  schedule: (ms: number, fn: () => void) => unknown;
  unschedule: (handle: unknown) => void;
  /** Settles with `work`, or rejects when the run stops or `extra` aborts. */
  race: <T>(work: unknown, extra?: AbortSignal) => Promise<T>;
  /** Whether the run was stopped or has ended: late answers change nothing. */
  over: () => boolean;
}

/**
 * A run's time budget: the 80% warning, and at the deadline a hard stop, a graceful wind-down
 * (grace iterations, then a hard stop `hardStopAfterMs` later) or a negotiation with an `onTimeout`
 * observer that may grant extensions. It holds the wind-down countdown: the loop asks
 * {@link TimeBudget.graceIteration} as each iteration begins.
 */
export class TimeBudget {
  readonly #host: TimeBudgetHost;
  #deadlineTimers: unknown[] = [];

  constructor(host: TimeBudgetHost) {
    this.#host = host;
  }

  /** Starts the clock of a run (a resumed run that is already winding down keeps its course). */
  start(): void {
    if (this.#host.config.timeBudgetMs === undefined || this.#host.state.windDown !== null) return;
    this.#scheduleDeadline();
  }

  #scheduleDeadline(): void {
    const { config, clock, state } = this.#host;
    const budget = config.timeBudgetMs;
    if (budget === undefined) return;
    for (const t of this.#deadlineTimers) this.#host.unschedule(t);
    const total = budget + state.extendedMs;
    const elapsed = clock.now() - state.startedAt;
    this.#deadlineTimers = [
      this.#host.schedule(0.8 * total - elapsed, () => {
        this.#host.approach('time', Math.round(clock.now() - state.startedAt), total);
      }),
      this.#host.schedule(total - elapsed, () => {
        this.#onDeadline();
      }),
    ];
  }

  #onDeadline(): void {
    switch (this.#host.config.timeoutBehavior) {
      case 'hard':
        this.#emitTimeLimit();
        this.#host.halt({ status: 'limit', reason: 'time-budget' });
        return;
      case 'graceful':
        this.#beginWindDown('time-budget');
        return;
      case 'negotiated':
        void this.#negotiate();
        return;
    }
  }

  #emitTimeLimit(): void {
    const { config, clock, state } = this.#host;
    const budget = config.timeBudgetMs ?? 0;
    this.#host.emit({
      type: 'limit.reached',
      limit: 'time',
      used: Math.max(0, clock.now() - state.startedAt),
      max: budget + state.extendedMs,
    });
  }

  async #negotiate(): Promise<void> {
    const host = this.#host;
    const { config, clock, state } = host;
    const budget = config.timeBudgetMs ?? 0;
    const remainingMs = Math.max(0, config.negotiatedTimeoutBudgetMs - state.extendedMs);
    let granted = 0;
    const observer = host.onTimeout;
    if (observer !== undefined && remainingMs > 0) {
      // An observer that does not answer within hardStopAfterMs has declined.
      const answer = new AbortController();
      const timer = host.schedule(config.hardStopAfterMs, () => {
        answer.abort(new ConfigError('RUNTIME_CALLBACK_TIMEOUT', 'onTimeout did not answer in time'));
      });
      try {
        const reply = await host.race<unknown>(
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
          answer.signal,
        );
        const asked = reply === true ? config.negotiatedExtensionMs : typeof reply === 'number' && Number.isFinite(reply) ? reply : 0;
        granted = Math.floor(Math.max(0, Math.min(asked, config.negotiatedExtensionMs, remainingMs)));
      } catch (error) {
        if (host.over()) return;
        host.onInternalError(error, 'onTimeout');
      } finally {
        host.unschedule(timer);
      }
    }
    if (host.over()) return;
    if (granted > 0) {
      state.extendedMs += granted;
      host.emit({ type: 'timeout.extended', byMs: granted, totalBudgetMs: budget + state.extendedMs });
      this.#scheduleDeadline();
    } else {
      this.#beginWindDown('negotiated-timeout');
    }
  }

  #beginWindDown(reason: StopReason): void {
    const host = this.#host;
    if (host.state.windDown !== null || host.over()) return;
    this.#emitTimeLimit();
    this.windDown(reason, host.config.graceIterations);
    host.schedule(host.config.hardStopAfterMs, () => {
      host.halt({ status: 'limit', reason });
    });
  }

  /**
   * Starts the wind-down (once): `graceIterations` more iterations to write the report. The time
   * limit starts it at the deadline; a stall the policy answered with `wind-down` starts it too.
   */
  windDown(reason: StopReason, graceIterations: number): void {
    const { state, clock } = this.#host;
    if (state.windDown !== null) return;
    state.windDown = { reason, startedAt: clock.now(), graceIterationsLeft: graceIterations, reportRequested: false };
    this.#host.emit({ type: 'wind-down.started', reason, graceIterations });
  }

  /**
   * Asked as an iteration begins, while the run winds down: counts one grace iteration off and
   * says whether the report is still to be asked for and whether this is the last one (which must
   * end in text: no tools). `undefined` while the run is not winding down.
   */
  graceIteration(): { reason: StopReason; requestReport: boolean; last: boolean } | undefined {
    const windDown = this.#host.state.windDown;
    if (windDown === null) return undefined;
    const requestReport = !windDown.reportRequested;
    windDown.reportRequested = true;
    windDown.graceIterationsLeft -= 1;
    return { reason: windDown.reason, requestReport, last: windDown.graceIterationsLeft <= 0 };
  }
}
