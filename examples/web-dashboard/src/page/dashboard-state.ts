// The dashboard's view of a run, rebuilt from its events alone: replaying the same events
// always gives the same state, and an event at or before `lastSeq` changes nothing, so a
// resumed stream can neither duplicate nor skip an entry.
import type { LimitKind, PlanItem, ProgressEvent, ProgressReport } from '@headway/protocol';

/** One tool call, running or finished. */
export interface ToolRow {
  callId: string;
  name: string;
  args?: unknown;
  /** `seq` of its `tool.executing` event. */
  seq: number;
  durationMs?: number;
  ok?: boolean;
  preview?: string;
}

/** The text one model call streamed. */
export interface TextBlock {
  /** The runtime's step name (`llm-1`, `llm-2`, …). */
  step: string;
  text: string;
  /** Tool calls the model asked for in this turn: a turn with any is narration, not the answer. */
  toolCalls: number;
}

/** A limit or wind-down warning. */
interface Warning {
  seq: number;
  kind: 'limit.approaching' | 'limit.reached' | 'wind-down.started' | 'timeout.extended';
  text: string;
}

/** How the run ended. */
interface Outcome {
  kind: 'completed' | 'limit' | 'error' | 'cancelled';
  text: string;
  durationMs?: number;
}

/** Everything the page shows about a run. */
export interface DashboardState {
  runId: string;
  /** `seq` of the last event applied (0 before any). */
  lastSeq: number;
  /** Events applied. */
  eventCount: number;
  task?: string;
  /** The run this one continues (`run.started`'s `parentRunId`). */
  parentRunId?: string;
  percent: number;
  message?: string;
  etaMs?: number;
  /** The range of the time left (about p10–p90), when the estimator has evidence for one. */
  etaLowMs?: number;
  etaHighMs?: number;
  /** The agent's latest plan (`plan.updated`). */
  plan?: PlanItem[];
  iteration?: { index: number; max: number };
  running: ToolRow[];
  finished: ToolRow[];
  texts: TextBlock[];
  /** Runtime guard notices (zero-length `guard:*` steps). */
  notices: string[];
  warnings: Warning[];
  report?: ProgressReport;
  outcome?: Outcome;
}

/** The state of a run before any event. */
export function initialState(runId: string): DashboardState {
  return { runId, lastSeq: 0, eventCount: 0, percent: 0, running: [], finished: [], texts: [], notices: [], warnings: [] };
}

const LIMIT_NAMES: Record<LimitKind, string> = { iterations: 'iteration', time: 'time', cost: 'cost' };

function amount(limit: LimitKind, n: number): string {
  if (limit === 'time') return `${(n / 1000).toFixed(1)} s`;
  if (limit === 'cost') return `$${n.toFixed(2)}`;
  return String(n);
}

function currentText(state: DashboardState): TextBlock | undefined {
  return state.texts.at(-1);
}

/**
 * Applies one event and returns the new state (the old one is not changed). Events of
 * another run, or at or before `lastSeq`, are ignored.
 */
export function applyEvent(state: DashboardState, event: ProgressEvent): DashboardState {
  if (event.runId !== state.runId || event.seq <= state.lastSeq) return state;
  const next: DashboardState = { ...state, lastSeq: event.seq, eventCount: state.eventCount + 1 };
  switch (event.type) {
    case 'run.started':
      if (event.task !== undefined) next.task = event.task;
      if (event.parentRunId !== undefined) next.parentRunId = event.parentRunId;
      break;
    case 'progress':
      // The estimator never moves the bar back; the page keeps that promise even if it did.
      next.percent = Math.max(state.percent, Math.min(100, event.percent));
      if (event.message !== undefined) next.message = event.message;
      if (event.etaMs === undefined) delete next.etaMs;
      else next.etaMs = event.etaMs;
      if (event.etaLowMs === undefined || event.etaHighMs === undefined) {
        delete next.etaLowMs;
        delete next.etaHighMs;
      } else {
        next.etaLowMs = event.etaLowMs;
        next.etaHighMs = event.etaHighMs;
      }
      break;
    case 'plan.updated':
      next.plan = event.items;
      break;
    case 'iteration':
      next.iteration = { index: event.index, max: event.max };
      break;
    case 'step.started':
      if (event.step.startsWith('guard:')) next.notices = [...state.notices, event.description ?? event.step];
      else if (event.step.startsWith('llm-')) next.texts = [...state.texts, { step: event.step, text: '', toolCalls: 0 }];
      break;
    case 'text.delta': {
      const block = currentText(state);
      next.texts =
        block === undefined
          ? [{ step: 'llm', text: event.text, toolCalls: 0 }]
          : [...state.texts.slice(0, -1), { ...block, text: block.text + event.text }];
      break;
    }
    case 'tool.executing': {
      const row: ToolRow = { callId: event.toolCallId ?? `seq-${event.seq}`, name: event.toolName, seq: event.seq };
      if (event.args !== undefined) row.args = event.args;
      next.running = [...state.running, row];
      const block = currentText(state);
      if (block !== undefined) next.texts = [...state.texts.slice(0, -1), { ...block, toolCalls: block.toolCalls + 1 }];
      break;
    }
    case 'tool.completed': {
      const index = state.running.findIndex((r) =>
        event.toolCallId === undefined ? r.name === event.toolName : r.callId === event.toolCallId,
      );
      const started = state.running[index];
      const row: ToolRow = {
        callId: started?.callId ?? event.toolCallId ?? `seq-${event.seq}`,
        name: event.toolName,
        seq: started?.seq ?? event.seq,
        durationMs: event.durationMs,
        ok: event.ok,
      };
      if (started?.args !== undefined) row.args = started.args;
      if (event.preview !== undefined) row.preview = event.preview;
      next.running = index === -1 ? state.running : state.running.filter((_, i) => i !== index);
      next.finished = [...state.finished, row];
      break;
    }
    case 'limit.approaching':
      next.warnings = [
        ...state.warnings,
        {
          seq: event.seq,
          kind: event.type,
          text: `Approaching the ${LIMIT_NAMES[event.limit]} limit: ${amount(event.limit, event.used)} of ${amount(event.limit, event.max)} used`,
        },
      ];
      break;
    case 'limit.reached':
      next.warnings = [
        ...state.warnings,
        {
          seq: event.seq,
          kind: event.type,
          text: `Reached the ${LIMIT_NAMES[event.limit]} limit (${amount(event.limit, event.max)}): the agent writes a progress report`,
        },
      ];
      break;
    case 'wind-down.started':
      next.warnings = [
        ...state.warnings,
        {
          seq: event.seq,
          kind: event.type,
          text: `Winding down (${event.reason}): ${event.graceIterations} more iteration(s) to wrap up and report`,
        },
      ];
      break;
    case 'timeout.extended':
      next.warnings = [
        ...state.warnings,
        { seq: event.seq, kind: event.type, text: `Time budget extended by ${(event.byMs / 1000).toFixed(0)} s` },
      ];
      break;
    case 'report.generated':
      next.report = event.report;
      break;
    case 'run.finished':
      next.running = [];
      next.outcome = {
        kind: event.outcome,
        text: event.outcome === 'completed' ? (finalAnswer(state) ?? event.summary ?? 'Done.') : (event.summary ?? 'Stopped at a limit.'),
        durationMs: event.durationMs,
      };
      if (event.outcome === 'completed') next.percent = 100;
      break;
    case 'run.error':
      next.running = [];
      next.outcome = { kind: 'error', text: event.error };
      break;
    case 'run.cancelled':
      next.running = [];
      next.outcome = { kind: 'cancelled', text: event.reason ?? 'cancelled' };
      break;
    case 'step.finished':
    case 'thinking':
    case 'intermediate.result':
    case 'checkpoint.saved':
      break;
  }
  return next;
}

/** The answer of a completed run: what its last model call said, when that call asked for no tool. */
function finalAnswer(state: DashboardState): string | undefined {
  const block = currentText(state);
  const text = block?.toolCalls === 0 ? block.text.trim() : undefined;
  return text === undefined || text === '' ? undefined : text;
}

/**
 * The model's in-between narration: the text of every turn that asked for tools, and of the turn
 * streaming now. Once the run has ended, its last turn without tool calls is the answer (or the
 * progress report), shown on its own, so it is not narration.
 */
export function narration(state: DashboardState): TextBlock[] {
  const blocks = state.texts.filter((b) => b.text.trim() !== '');
  const last = blocks.at(-1);
  return state.outcome !== undefined && last?.toolCalls === 0 ? blocks.slice(0, -1) : blocks;
}

/** Whether the run has ended. */
export function isFinished(state: DashboardState): boolean {
  return state.outcome !== undefined;
}
