// Draws a DashboardState into the page. Everything from the run (model text, tool args and
// previews) goes in as text, never as HTML.
import type { StepRange } from '@headway/estimator';
import { renderProgressReport } from '@headway/report';
import type { DashboardState, ToolRow } from './dashboard-state.js';

/** What the page knows about a run besides its events (from `GET /api/runs/:id`). */
export interface RunView {
  runId: string;
  task: string;
  provider: string;
  maxIterations: number;
  steps: StepRange[];
}

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: { className?: string; text?: string; data?: Record<string, string> } = {},
  ...children: Node[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (props.className !== undefined) node.className = props.className;
  if (props.text !== undefined) node.textContent = props.text;
  for (const [k, v] of Object.entries(props.data ?? {})) node.dataset[k] = v;
  node.append(...children);
  return node;
}

function byId(id: string): HTMLElement {
  const node = document.getElementById(id);
  if (node === null) throw new Error(`the page has no #${id}`);
  return node;
}

/** `1.2 s`, `850 ms`, `2 min 5 s`. */
/** A range of time left in the unit of its high end: `20–45 s`, `2–5 min`, `1–3 h`. */
function formatRange(lowMs: number, highMs: number): string {
  const [unitMs, unit] = highMs < 60_000 ? [1000, 's'] : highMs < 3_600_000 ? [60_000, 'min'] : [3_600_000, 'h'];
  const lo = Math.floor(Math.max(0, lowMs) / unitMs);
  const hi = Math.max(1, Math.ceil(highMs / unitMs));
  return lo >= hi ? `${hi} ${unit}` : `${lo === 0 ? '<1' : String(lo)}–${hi} ${unit}`;
}

function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)} s`;
  return `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
}

function argsText(args: unknown): string {
  if (args === undefined) return '';
  const text = JSON.stringify(args);
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

function toolRow(row: ToolRow): HTMLElement {
  return el(
    'li',
    { className: `tool ${row.ok === false ? 'failed' : 'ok'}`, data: { callId: row.callId } },
    el('span', { className: 'mark', text: row.ok === false ? '✗' : '✓' }),
    el('span', { className: 'name', text: row.name }),
    el('span', { className: 'args', text: argsText(row.args) }),
    el('span', { className: 'duration', text: formatDuration(row.durationMs ?? 0) }),
    el('div', { className: 'preview', text: row.preview ?? '' }),
  );
}

/** Which step the bar is in: steps whose slice ends at or below the percent are done. */
function stepClass(step: StepRange, percent: number, finished: boolean): string {
  if (finished || percent >= step.end) return 'done';
  if (percent >= step.start) return 'active';
  return 'pending';
}

/** Redraws the run panel from `state`. */
export function renderRun(view: RunView, state: DashboardState): void {
  const root = byId('run');
  root.hidden = false;
  root.dataset.runId = state.runId;
  root.dataset.lastSeq = String(state.lastSeq);
  root.dataset.eventCount = String(state.eventCount);
  root.dataset.status = state.outcome?.kind ?? 'running';

  byId('task').textContent = state.task ?? view.task;
  const status = byId('status');
  status.textContent = state.outcome === undefined ? 'running' : state.outcome.kind === 'limit' ? 'stopped at limit' : state.outcome.kind;
  status.className = `badge ${state.outcome?.kind ?? 'running'}`;
  byId('iteration').textContent =
    state.iteration === undefined
      ? ''
      : `iteration ${Math.min(state.iteration.index + 1, state.iteration.max)}/${state.iteration.max} · ${view.provider}`;

  const percent = Math.round(state.percent * 10) / 10;
  const bar = byId('bar');
  bar.setAttribute('aria-valuenow', String(percent));
  byId('bar-fill').style.width = `${percent}%`;
  byId('percent').textContent = `${Math.floor(percent)}%`;
  byId('eta').textContent =
    state.outcome !== undefined
      ? state.outcome.durationMs === undefined
        ? ''
        : `took ${formatDuration(state.outcome.durationMs)}`
      : state.etaLowMs !== undefined && state.etaHighMs !== undefined
        ? `ETA ${formatRange(state.etaLowMs, state.etaHighMs)}`
        : state.etaMs === undefined
          ? 'ETA —'
          : `ETA ${formatDuration(state.etaMs)}`;
  byId('message').textContent = state.message ?? '';

  const steps = byId('steps');
  steps.replaceChildren(
    ...view.steps.map((s) =>
      el(
        'li',
        { className: stepClass(s, state.percent, state.outcome?.kind === 'completed') },
        el('span', { className: 'name', text: s.name }),
        el('span', { className: 'weight', text: `weight ${s.weight} · ${Math.round(s.start)}–${Math.round(s.end)}%` }),
      ),
    ),
  );
  byId('steps-panel').hidden = view.steps.length === 0;

  const plan = state.plan ?? [];
  const planClass = { completed: 'done', in_progress: 'active', pending: 'pending' } as const;
  byId('plan').replaceChildren(
    ...plan.map((item) => el('li', { className: planClass[item.status], text: item.text, data: { status: item.status } })),
  );
  byId('plan-count').textContent = `${plan.filter((i) => i.status === 'completed').length}/${plan.length}`;
  byId('plan-panel').hidden = plan.length === 0;

  byId('warnings').replaceChildren(
    ...state.warnings.map((w) =>
      el('li', { className: `warning ${w.kind.replace('.', '-')}`, text: w.text, data: { seq: String(w.seq) } }),
    ),
  );
  byId('running').replaceChildren(
    ...state.running.map((r) =>
      el(
        'li',
        { className: 'tool running', data: { callId: r.callId } },
        el('span', { className: 'spinner' }),
        el('span', { className: 'name', text: r.name }),
        el('span', { className: 'args', text: argsText(r.args) }),
      ),
    ),
  );
  byId('tools').replaceChildren(...state.finished.map(toolRow));
  byId('tool-count').textContent = String(state.finished.length);
  byId('notices').replaceChildren(...state.notices.map((n) => el('li', { text: n })));

  const texts = byId('text');
  const blocks = state.texts.filter((b) => b.text.trim() !== '');
  texts.replaceChildren(
    ...blocks.map((b, i) =>
      el(
        'div',
        { className: `text-block${i === blocks.length - 1 && state.outcome === undefined ? ' streaming' : ''}`, data: { step: b.step } },
        el('span', { className: 'step', text: b.step }),
        el('p', { text: b.text.trim() }),
      ),
    ),
  );
  texts.scrollTop = texts.scrollHeight;

  const result = byId('result');
  result.hidden = state.outcome === undefined;
  if (state.outcome !== undefined) {
    const title = byId('result-title');
    const body = byId('result-body');
    if (state.outcome.kind === 'completed') {
      title.textContent = 'Answer';
      body.textContent = state.outcome.text;
      body.className = 'answer';
    } else {
      title.textContent = state.outcome.kind === 'limit' ? 'PROGRESS REPORT' : `Run ${state.outcome.kind}: ${state.outcome.text}`;
      body.textContent = state.report === undefined ? state.outcome.text : renderProgressReport(state.report);
      body.className = 'report';
    }
  }
}

/** Shows a problem above the run panel (empty text hides it). */
export function showError(text: string): void {
  const node = byId('error');
  node.textContent = text;
  node.hidden = text === '';
}
