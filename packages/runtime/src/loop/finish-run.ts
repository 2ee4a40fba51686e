import type { ReportInternalError } from './internal-error-context.js';
import type { ProgressTracker } from '@headway/estimator';
import { runEndOfStopReason, type ProgressEventBody, type ProgressReport, type RunEnd, type StopReason } from '@headway/protocol';
import { buildFallbackReport, parseProgressReport, renderProgressReport, type ToolCallLog } from '@headway/report';
import type { Usage } from '../provider/provider.js';
import type { Clock } from './clock.js';
import type { RunState, RunStatus } from './run-state.js';

/** What a finished run returns. */
export interface RunResult {
  /** The final answer; for a run that stopped short, the rendered progress report. */
  text: string;
  status: Exclude<RunStatus, 'running'>;
  /**
   * How the run ended in the one run-state vocabulary every part uses (`describeRunEnd` says it
   * in words): `completed`, `limit` (with which limit), `stalled`, `cancelled` or `failed`. Always
   * set by `AgentRuntime`; optional so a result built by hand (an `AgentRunFn` of `@headway/mcp`)
   * still type-checks.
   */
  end?: RunEnd;
  /** The run this one continued, when it was started from an earlier run's report. */
  parentRunId?: string;
  /** The structured handoff of a run that stopped short (limit, cancellation, error). */
  report?: ProgressReport;
  /** Why a run with `status: 'error'` failed: the thrown error's `code` (`RUN_ERROR` when it has none) and message. */
  error?: RunErrorInfo;
  usage: Usage;
  /** Provider calls made. */
  iterations: number;
  runId: string;
  sessionId: string;
}

/** The run a continuation continues: its id and the progress report it handed over. */
export interface ContinueFrom {
  runId: string;
  report: ProgressReport;
}

/** The error that ended a run, as {@link RunResult.error} carries it. */
export interface RunErrorInfo {
  /** The `HeadwayError` code (e.g. `PROVIDER_UNAVAILABLE`), or `RUN_ERROR` for any other thrown value. */
  code: string;
  message: string;
}

/** How the loop ended, before the terminal event and the report. */
export type Outcome =
  | { status: 'completed'; text: string }
  | { status: 'limit'; reason: StopReason; modelText?: string }
  | { status: 'cancelled'; reason: string }
  | { status: 'error'; error: string; code?: string };

const LIMIT_TEXT: Record<StopReason, string> = {
  'max-iterations': 'the iteration limit',
  'time-budget': 'the time budget',
  'negotiated-timeout': 'the time budget (extension declined)',
  'cost-budget': 'the cost budget',
  cancelled: 'a cancellation',
  error: 'an error',
  stalled: 'a stall (the run was repeating itself)',
};

/** What finishing a run needs from its loop. */
export interface FinishEnv {
  state: RunState;
  clock: Clock;
  log: ToolCallLog;
  tracker: ProgressTracker;
  emit: (body: ProgressEventBody) => void;
  onInternalError: ReportInternalError;
  /** The last stall seen, described (`ls src/work 5× with the same result`). */
  stall?: string;
}

function stats(env: FinishEnv): ProgressReport['stats'] {
  return {
    iterations: env.state.iteration,
    toolCalls: env.log.toolCallCount,
    elapsedMs: Math.max(0, env.clock.now() - env.state.startedAt),
  };
}

/** The task as people read it: a continuation keeps the original one. */
function taskOf(state: RunState): string {
  return state.task ?? state.input;
}

/** The tool calls of the iteration in flight that had not finished: what the run was doing when it stopped. */
function unfinished(state: RunState): string[] {
  return (state.inFlight?.toolCalls ?? [])
    .filter((c) => c.status !== 'finished')
    .map((c) => `${c.name}: ${c.status === 'started' ? 'started, not finished' : 'not started'}`);
}

function fallbackReport(env: FinishEnv, reason: StopReason): ProgressReport {
  return buildFallbackReport({ task: taskOf(env.state), log: env.log, reason, stats: stats(env), unfinished: unfinished(env.state) });
}

/** The model's report when its reply parses into one, else the fallback. */
function reportFrom(env: FinishEnv, reason: StopReason, modelText: string | undefined): ProgressReport {
  if (modelText !== undefined && modelText.trim() !== '') {
    try {
      const { report } = parseProgressReport(modelText, { task: taskOf(env.state), reason, stats: stats(env), generatedBy: 'model' });
      const lists = [report.completedWork, report.keyFindings, report.attemptedInconclusive, report.remaining, report.suggestedNextSteps];
      if (lists.some((l) => l.length > 0)) {
        return {
          ...report,
          task: report.task.trim() === '' ? taskOf(env.state) : report.task,
          reason,
          stats: stats(env),
          generatedBy: 'model',
        };
      }
    } catch (error) {
      env.onInternalError(error, 'report-parse');
    }
  }
  return fallbackReport(env, reason);
}

/**
 * Ends a run: emits `report.generated` (for a run that stopped short) and exactly one terminal
 * event, and builds the {@link RunResult}.
 */
export function finishRun(outcome: Outcome, env: FinishEnv): RunResult {
  const { state, clock, emit } = env;
  const durationMs = Math.max(0, clock.now() - state.startedAt);
  const iterations = state.iteration;
  const base = {
    usage: state.usage,
    iterations,
    runId: state.runId,
    sessionId: state.sessionId,
    ...(state.parentRunId === undefined ? {} : { parentRunId: state.parentRunId }),
  };
  const tokenCount = state.usage.inputTokens + state.usage.outputTokens;
  switch (outcome.status) {
    case 'completed': {
      env.tracker.complete();
      emit({ type: 'run.finished', durationMs, tokenCount, outcome: 'completed', summary: `finished after ${iterations} iteration(s)` });
      return { ...base, text: outcome.text, status: 'completed', end: { state: 'completed' } };
    }
    case 'limit': {
      const written = reportFrom(env, outcome.reason, outcome.modelText);
      // A report of a run stopped as stuck says what looped, whoever wrote it.
      const looped = outcome.reason === 'stalled' && env.stall !== undefined ? `Stopped as stuck: ${env.stall}` : undefined;
      const report: ProgressReport =
        looped === undefined ? written : { ...written, attemptedInconclusive: [looped, ...written.attemptedInconclusive] };
      emit({ type: 'report.generated', report });
      emit({
        type: 'run.finished',
        durationMs,
        tokenCount,
        outcome: 'limit',
        summary: `stopped at ${LIMIT_TEXT[outcome.reason]} after ${iterations} iteration(s); progress report attached`,
        stopReason: outcome.reason,
      });
      return { ...base, text: renderProgressReport(report), status: 'limit', end: runEndOfStopReason(outcome.reason), report };
    }
    case 'cancelled': {
      const report = fallbackReport(env, 'cancelled');
      emit({ type: 'report.generated', report });
      emit({ type: 'run.cancelled', reason: outcome.reason });
      return { ...base, text: renderProgressReport(report), status: 'cancelled', end: { state: 'cancelled' }, report };
    }
    case 'error': {
      const fallback = fallbackReport(env, 'error');
      // The reason belongs in the handoff itself: a reader of the report alone must see it.
      const report: ProgressReport = {
        ...fallback,
        attemptedInconclusive: [`The run stopped on an error: ${outcome.error}`, ...fallback.attemptedInconclusive],
      };
      emit({ type: 'report.generated', report });
      emit({ type: 'run.error', error: outcome.error });
      return {
        ...base,
        text: renderProgressReport(report),
        status: 'error',
        end: { state: 'failed' },
        report,
        error: { code: outcome.code ?? 'RUN_ERROR', message: outcome.error },
      };
    }
  }
}
