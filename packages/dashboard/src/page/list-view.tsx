// The list: every run, live ones first, each row keyed by its checkpoint id so a snapshot of a
// thousand runs touches only the rows whose cells changed, and every row keeps its slot.
import { Component } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { duration, eta, spent } from './format.js';
import type { PageRun } from './frames.js';
import { useLiveList } from './live.js';
import { RunLink, Status } from './parts.js';
import { useRowWindow } from './row-window.js';

const STATES = [
  '',
  'running',
  'completed',
  'limit:iterations',
  'limit:time',
  'limit:cost',
  'stalled',
  'cancelled',
  'failed',
  'interrupted',
];
const COLUMNS = ['Run', 'Progress', 'ETA', 'State', 'Iteration', 'Spent', 'Age', 'Worker', 'Agent', 'Task'];
const FILTERS = ['state', 'agent', 'worker', 'q'] as const;
type Filters = Record<(typeof FILTERS)[number], string>;

/** What one row shows, as text: a row is drawn again only when one of these changed. */
interface RowCells {
  runId: string;
  percent: number;
  eta: string;
  state: string;
  iteration: string;
  spent: string;
  age: string;
  worker: string;
  agent: string;
  task: string;
}

function cellsOf(run: PageRun, now: number): RowCells {
  return {
    runId: run.runId,
    percent: Math.max(0, Math.min(100, run.percent)),
    eta: eta(run),
    state: run.state,
    iteration: String(run.iteration),
    spent: spent(run),
    age: duration(Math.max(0, now - run.startedAt)),
    worker: run.sessionId,
    agent: run.agent,
    task: run.task,
  };
}

function sameCells(a: RowCells, b: RowCells): boolean {
  for (const key of Object.keys(a) as (keyof RowCells)[]) if (a[key] !== b[key]) return false;
  return true;
}

/** One row; skips its diff entirely when its cells read the same as last time. */
class Row extends Component<{ cells: RowCells; index: number }> {
  override shouldComponentUpdate(next: { cells: RowCells; index: number }): boolean {
    return next.index !== this.props.index || !sameCells(this.props.cells, next.cells);
  }

  override render({ cells, index }: { cells: RowCells; index: number }) {
    return (
      <tr data-run={cells.runId} aria-rowindex={index + 2}>
        <td>
          <RunLink runId={cells.runId} />
        </td>
        <td>
          <div
            class="bar"
            role="progressbar"
            aria-label="progress"
            aria-valuenow={Math.round(cells.percent)}
            aria-valuemin={0}
            aria-valuemax={100}
          >
            <div class="fill" style={{ width: `${String(cells.percent)}%` }} />
          </div>
        </td>
        <td>{cells.eta}</td>
        <td class="state">{cells.state}</td>
        <td>{cells.iteration}</td>
        <td>{cells.spent}</td>
        <td>{cells.age}</td>
        <td>{cells.worker}</td>
        <td>{cells.agent}</td>
        <td class="task" title={cells.task}>
          {cells.task}
        </td>
      </tr>
    );
  }
}

/** The height of the rows not drawn, above or below the drawn ones. */
function Spacer({ px }: { px: number }) {
  return (
    <tr class="spacer" aria-hidden="true">
      <td colSpan={COLUMNS.length} style={{ height: `${String(px)}px` }} />
    </tr>
  );
}

function filtersOf(search: string): Filters {
  const params = new URLSearchParams(search);
  return {
    state: params.get('state') ?? '',
    agent: params.get('agent') ?? '',
    worker: params.get('worker') ?? '',
    q: params.get('q') ?? '',
  };
}

function queryOf(filters: Filters): string {
  const query = new URLSearchParams();
  for (const key of FILTERS) if (filters[key] !== '') query.set(key, filters[key]);
  const text = query.toString();
  return text === '' ? '' : `?${text}`;
}

/** The list view: filters (kept in the address), the count, the status line and the table. */
export function ListView() {
  const [filters, setFilters] = useState(() => filtersOf(location.search));
  const search = queryOf(filters);
  // New filters, a new stream: the slots start again with the new set of runs.
  const { runs, status } = useLiveList(`/api/stream${search}`);
  const change = (key: keyof Filters) => (event: Event) => {
    const next = { ...filters, [key]: (event.currentTarget as HTMLInputElement | HTMLSelectElement).value };
    const nextSearch = queryOf(next);
    if (location.pathname === '/' && location.search !== nextSearch) history.replaceState(null, '', `/${nextSearch}`);
    setFilters(next);
  };
  const now = Date.now();
  const body = useRef<HTMLTableSectionElement>(null);
  const count = runs?.length ?? 0;
  const { start, end, rowPx } = useRowWindow(count, body);
  return (
    <>
      <h2>All runs</h2>
      <form
        class="filters"
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
        }}
      >
        <select name="state" aria-label="state" value={filters.state} onInput={change('state')}>
          {STATES.map((word) => (
            <option key={word} value={word}>
              {word === '' ? 'any state' : word}
            </option>
          ))}
        </select>
        <input name="agent" placeholder="agent" aria-label="agent" value={filters.agent} onInput={change('agent')} />
        <input name="worker" placeholder="worker" aria-label="worker" value={filters.worker} onInput={change('worker')} />
        <input name="q" type="search" placeholder="search task or run id" aria-label="search" value={filters.q} onInput={change('q')} />
      </form>
      <p class="count">{runs === undefined ? '' : `${String(runs.length)} runs`}</p>
      <Status status={status} />
      <table class="runs" aria-rowcount={count + 1}>
        <thead>
          <tr aria-rowindex={1}>
            {COLUMNS.map((h) => (
              <th key={h} scope="col">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody ref={body}>
          {start > 0 ? <Spacer px={start * rowPx} /> : null}
          {(runs ?? []).slice(start, end).map((run, i) => (
            <Row key={run.id} index={start + i} cells={cellsOf(run, now)} />
          ))}
          {end < count ? <Spacer px={(count - end) * rowPx} /> : null}
        </tbody>
      </table>
    </>
  );
}
