// The dashboard page: starts a run, follows its events over SSE and draws them. The run id
// lives in the location hash (#run=<id>) and the events in sessionStorage, so a reload
// rebuilds the state and resumes the stream after the last event it had.
import type { ProgressEvent } from '@headway/protocol';
import { SseError, subscribeToRun } from '@headway/sse/browser';
import { z } from 'zod';
import { applyEvent, initialState, isFinished, type DashboardState } from './dashboard-state.js';
import { renderRun, showError, type RunView } from './render.js';
import { loadSavedEvents, saveEvents } from './saved-events.js';
import './style.css';

const stepRangeSchema = z.object({ name: z.string(), weight: z.number(), start: z.number(), end: z.number() });
const runViewSchema: z.ZodType<RunView> = z.object({
  runId: z.string().min(1),
  task: z.string(),
  provider: z.string(),
  maxIterations: z.number(),
  steps: z.array(stepRangeSchema),
  parentRunId: z.string().min(1).exactOptional(),
  chain: z
    .array(z.object({ runId: z.string().min(1), status: z.string() }))
    .max(100)
    .exactOptional(),
});

/** The token the server wrote into this page; requests that start runs carry it. */
function pageToken(): string {
  return document.querySelector<HTMLMetaElement>('meta[name="headway-page-token"]')?.content ?? '';
}

/** A POST that starts a run: JSON, with the page's token. */
function postJson(body: unknown): RequestInit {
  return {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-headway-page-token': pageToken() },
    body: JSON.stringify(body),
  };
}
const configSchema = z.object({ providers: z.array(z.string()), task: z.string(), maxIterations: z.number() });

async function getJson<T>(url: string, schema: z.ZodType<T>, init?: RequestInit): Promise<T> {
  const response = await fetch(url, init);
  const body: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const error = z.object({ error: z.string() }).safeParse(body);
    throw new Error(error.success ? error.data.error : `${url}: HTTP ${response.status}`);
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new Error(`${url}: unexpected answer (${parsed.error.issues[0]?.message ?? 'invalid'})`);
  return parsed.data;
}

function runIdFromHash(): string | undefined {
  const match = /^#run=([\w-]{1,100})$/.exec(location.hash);
  return match?.[1];
}

/** The run being followed: its state, the events behind it, and how to stop following. */
let current: { view: RunView; state: DashboardState; events: ProgressEvent[]; controller: AbortController } | undefined;
let frame: number | undefined;
/** Leaving the page closes its EventSource, which reads as a failed stream: ignore that. */
let leaving = false;
for (const type of ['beforeunload', 'pagehide']) {
  window.addEventListener(type, () => {
    leaving = true;
  });
}

/** Lets a page that is being left finish leaving before a failure is taken at its word. */
function settleDown(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 300));
}

function scheduleDraw(): void {
  if (frame !== undefined) return;
  frame = requestAnimationFrame(() => {
    frame = undefined;
    if (current === undefined) return;
    renderRun(current.view, current.state);
    saveEvents(sessionStorage, current.view.runId, current.events);
  });
}

function receive(event: ProgressEvent): void {
  if (current === undefined) return;
  const next = applyEvent(current.state, event);
  if (next === current.state) return;
  current.state = next;
  current.events.push(event);
  scheduleDraw();
}

async function follow(view: RunView): Promise<void> {
  current?.controller.abort(new Error('switched to another run'));
  const controller = new AbortController();
  const saved = loadSavedEvents(sessionStorage, view.runId);
  let state = initialState(view.runId);
  for (const event of saved) state = applyEvent(state, event);
  current = { view, state, events: [...saved], controller };
  renderRun(view, state);
  if (isFinished(state)) return;
  const mine = current;
  // Not narrowed away by the checks before an await: both change while a stream is open.
  const unwanted = (): boolean => controller.signal.aborted || leaving;
  const subscribe = (): Promise<unknown> =>
    subscribeToRun(`api/runs/${encodeURIComponent(view.runId)}/events`, {
      onEvent: receive,
      signal: controller.signal,
      ...(mine.state.lastSeq > 0 ? { lastEventId: mine.state.lastSeq } : {}),
      onInvalid: (error) => {
        showError(`An invalid event was skipped: ${error.message}`);
      },
    });
  try {
    await subscribe();
  } catch (error) {
    // Leaving the page closes its stream too (even before `pagehide`): that is no failure.
    await settleDown();
    if (unwanted()) return;
    if (error instanceof SseError && error.code === 'SSE_CONNECTION_FAILED' && mine.state.lastSeq > 0 && !isFinished(mine.state)) {
      // The server could not resume after our last event (it restarted, or forgot it):
      // start over from a full replay rather than show a gap; the saved copy is replaced
      // at the next draw.
      mine.state = initialState(view.runId);
      mine.events = [];
      try {
        await subscribe();
        return;
      } catch (retryError) {
        await settleDown();
        if (unwanted()) return;
        showError(`Lost the run's event stream: ${(retryError as Error).message}`);
        return;
      }
    }
    showError(`Lost the run's event stream: ${(error as Error).message}`);
  }
}

async function openRun(runId: string): Promise<void> {
  showError('');
  try {
    await follow(await getJson(`api/runs/${encodeURIComponent(runId)}`, runViewSchema));
  } catch (error) {
    showError(`Cannot show run ${runId}: ${(error as Error).message}`);
  }
}

function field<T extends HTMLElement>(id: string, type: new () => T): T {
  const node = document.getElementById(id);
  if (!(node instanceof type)) throw new Error(`the page has no ${type.name} #${id}`);
  return node;
}

async function start(event: SubmitEvent): Promise<void> {
  event.preventDefault();
  showError('');
  const task = field('task-input', HTMLTextAreaElement).value.trim();
  const maxIterations = Number(field('max-iterations', HTMLInputElement).value);
  const provider = field('provider', HTMLSelectElement).value;
  const budget = field('time-budget', HTMLInputElement).value.trim();
  const body: Record<string, unknown> = { maxIterations, provider };
  if (task !== '') body.task = task;
  if (budget !== '') body.timeBudgetMs = Math.round(Number(budget) * 1000);
  const button = field('start-button', HTMLButtonElement);
  button.disabled = true;
  try {
    const view = await getJson('api/runs', runViewSchema, postJson(body));
    history.pushState(null, '', `#run=${view.runId}`);
    void follow(view);
  } catch (error) {
    showError(`Cannot start the run: ${(error as Error).message}`);
  } finally {
    button.disabled = false;
  }
}

/** Starts the follow-up of the run on the page from its report, and follows it. */
async function continueCurrent(): Promise<void> {
  if (current === undefined) return;
  showError('');
  const button = field('continue-button', HTMLButtonElement);
  button.disabled = true;
  try {
    const view = await getJson(`api/runs/${encodeURIComponent(current.view.runId)}/continue`, runViewSchema, postJson({}));
    history.pushState(null, '', `#run=${view.runId}`);
    void follow(view);
  } catch (error) {
    showError(`Cannot continue the run: ${(error as Error).message}`);
  } finally {
    button.disabled = false;
  }
}

async function init(): Promise<void> {
  field('start-form', HTMLFormElement).addEventListener('submit', (event) => void start(event));
  field('continue-button', HTMLButtonElement).addEventListener('click', () => void continueCurrent());
  try {
    const config = await getJson('api/config', configSchema);
    field('task-input', HTMLTextAreaElement).placeholder = config.task;
    field('max-iterations', HTMLInputElement).value = String(config.maxIterations);
    field('provider', HTMLSelectElement).replaceChildren(
      ...config.providers.map((p) => new Option(p === 'openai' ? 'OpenAI (OPENAI_API_KEY)' : 'scripted model', p)),
    );
  } catch (error) {
    showError(`Cannot reach the server: ${(error as Error).message}`);
  }
  const runId = runIdFromHash();
  if (runId !== undefined) await openRun(runId);
  window.addEventListener('popstate', () => {
    const id = runIdFromHash();
    if (id !== undefined && id !== current?.view.runId) void openRun(id);
  });
}

void init();
