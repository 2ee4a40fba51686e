import type { ProgressTracker } from '@headway/estimator';
import type { ProgressEventBody, ProgressReport, StopReason } from '@headway/protocol';
import { buildFallbackReport, parseProgressReport, renderProgressReport, type ToolCallLog } from '@headway/report';
import type { Usage } from '../provider/provider.js';
import type { Clock } from './clock.js';
import type { RunState, RunStatus } from './run-state.js';

/** What a finished run returns. */
export interface RunResult {
  /** The final answer; for a run that stopped short, the rendered progress report. */
  text: string;
  status: Exclude<RunStatus, 'running'>;
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
  onInternalError: (error: unknown, where: string) => void;
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

function fallbackReport(env: FinishEnv, reason: StopReason): ProgressReport {
  return buildFallbackReport({ task: env.state.input, log: env.log, reason, stats: stats(env) });
}

/** The model's report when its reply parses into one, else the fallback. */
function reportFrom(env: FinishEnv, reason: StopReason, modelText: string | undefined): ProgressReport {
  if (modelText !== undefined && modelText.trim() !== '') {
    try {
      const { report } = parseProgressReport(modelText, { task: env.state.input, reason, stats: stats(env), generatedBy: 'model' });
      const lists = [report.completedWork, report.keyFindings, report.attemptedInconclusive, report.remaining, report.suggestedNextSteps];
      if (lists.some((l) => l.length > 0)) {
        return {
          ...report,
          task: report.task.trim() === '' ? env.state.input : report.task,
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
  const base = { usage: state.usage, iterations, runId: state.runId, sessionId: state.sessionId };
  const tokenCount = state.usage.inputTokens + state.usage.outputTokens;
  switch (outcome.status) {
    case 'completed': {
      env.tracker.complete();
      emit({ type: 'run.finished', durationMs, tokenCount, outcome: 'completed', summary: `finished after ${iterations} iteration(s)` });
      return { ...base, text: outcome.text, status: 'completed' };
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
      });
      return { ...base, text: renderProgressReport(report), status: 'limit', report };
    }
    case 'cancelled': {
      const report = fallbackReport(env, 'cancelled');
      emit({ type: 'report.generated', report });
      emit({ type: 'run.cancelled', reason: outcome.reason });
      return { ...base, text: renderProgressReport(report), status: 'cancelled', report };
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
        report,
        error: { code: outcome.code ?? 'RUN_ERROR', message: outcome.error },
      };
    }
  }
}
