import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { redact, type Clock, type InternalErrorContext, type OnInternalError } from '@headway/protocol';
import type { CheckpointStore, RunRequestStore } from '@headway/runtime';
import { z } from 'zod';
import { DashboardError } from './dashboard-error.js';
import { readRunDetail } from './dashboard-run-detail.js';
import type { DashboardAction, DashboardRun } from './dashboard-run-types.js';
import { dashboardRun, readDashboardRuns } from './dashboard-runs.js';
import { createSnapshotPollers, streamSnapshots } from './dashboard-stream.js';
import { PAGE_CSS, PAGE_HTML, pageScript } from './page.js';
import { takeRunAction } from './run-actions.js';

/**
 * The Content-Security-Policy of every response: the page's own script, style and connections
 * only; no inline script, no framing, no `<base>` rewrite, no form posts.
 */
export const DASHBOARD_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** The cookie the one-time link sets (HttpOnly, SameSite=Strict). */
const TOKEN_COOKIE = 'headway_dashboard';

/** Options of {@link createDashboardHandler}. */
export interface DashboardHandlerOptions {
  /** Where runs are read from, and what Abandon writes to. */
  checkpoints: CheckpointStore;
  /**
   * Where Continue, Resume and Cancel are written for workers to claim (default the store's own,
   * `checkpoints.runRequests()`); without one those actions answer 503.
   */
  requests?: RunRequestStore;
  /** Where "now" comes from. */
  clock: Clock;
  /**
   * The token actions need (a bearer header, or the cookie set by `/auth?token=…`). Without one,
   * actions are refused (401); with `requireTokenToRead`, reading needs it too.
   */
  token?: string;
  /**
   * Serves `GET /api/live/runs/<runId>`: a run's events as they happen (Server-Sent Events, resumed
   * from `Last-Event-ID` after a reconnect), e.g. `createSseHandler({ source: createRedisReplayLog(client) })`
   * when workers publish to Redis. Reading it follows the same token rule as every other read.
   */
  live?: (req: IncomingMessage, res: ServerResponse) => void;
  /** Every request needs the token, reading included (set it for a bind other than 127.0.0.1). */
  requireTokenToRead?: boolean;
  /** A running checkpoint not written for longer than this reads `interrupted` (default 60 000 ms). */
  activeWithinMs?: number;
  /** Where the runs' saved reports are (`.headway/reports`: `<runId>.json`); without it no report is shown. */
  reportsDir?: string;
  /**
   * How often a live stream (`/api/stream`, `/api/runs/<id>/stream`) reads the store again (default
   * 1000 ms). Streams of the same query share one read: one poller per distinct query.
   */
  pollMs?: number;
  /** Told of a request that failed inside the server (it answered 500); errors it throws are ignored. */
  onInternalError?: OnInternalError<DashboardErrorContext>;
}

/**
 * Where a failure the dashboard survived happened: `request`, a request that failed inside the
 * server (it answered 500); `stream`, a live stream that could not read the store (it keeps going).
 */
export interface DashboardErrorContext extends InternalErrorContext<'request' | 'stream'> {
  readonly where: 'request' | 'stream';
}

const runsQuery = z.strictObject({
  state: z
    .string()
    .max(40)
    .regex(/^[a-z:]+$/, 'a state word such as running or limit:cost')
    .optional(),
  agent: z.string().max(200).optional(),
  worker: z.string().max(200).optional(),
  q: z.string().max(200).optional(),
});

const idParam = z.string().min(1).max(200);

const HEADERS: Record<string, string> = {
  'content-security-policy': DASHBOARD_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

function send(res: ServerResponse, status: number, type: string, body: string, extra: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': type, ...HEADERS, ...extra });
  res.end(body);
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  send(res, status, 'application/json; charset=utf-8', JSON.stringify(value));
}

const STATUS: Record<DashboardError['code'], number> = {
  DASHBOARD_INVALID_OPTIONS: 500,
  DASHBOARD_BAD_REQUEST: 400,
  DASHBOARD_UNAUTHORIZED: 401,
  DASHBOARD_FORBIDDEN: 403,
  DASHBOARD_NOT_FOUND: 404,
  DASHBOARD_CONFLICT: 409,
  DASHBOARD_UNAVAILABLE: 503,
};

function sendError(res: ServerResponse, error: DashboardError): void {
  sendJson(res, STATUS[error.code], { error: { code: error.code, message: error.message, issues: error.issues } });
}

function sameToken(given: string | undefined, token: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function cookieToken(req: IncomingMessage): string | undefined {
  const header = req.headers.cookie;
  if (typeof header !== 'string') return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === TOKEN_COOKIE) return part.slice(eq + 1).trim();
  }
  return undefined;
}

function bearerToken(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  return typeof header === 'string' && header.startsWith('Bearer ') ? header.slice('Bearer '.length) : undefined;
}

/** The query parameters of a URL as one value each; a repeated one is refused. */
function queryOf(url: URL): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of url.searchParams) {
    if (Object.hasOwn(out, key)) {
      throw new DashboardError('DASHBOARD_BAD_REQUEST', `query parameter ${JSON.stringify(key.slice(0, 40))} given twice`, {
        issues: [{ path: `query.${key.slice(0, 40)}`, message: 'given twice' }],
      });
    }
    out[key] = value;
  }
  return out;
}

function parseOrThrow<T>(schema: z.ZodType<T>, value: unknown, where: string): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((issue) => ({ path: [where, ...issue.path.map(String)].join('.'), message: issue.message }));
  throw new DashboardError('DASHBOARD_BAD_REQUEST', `bad ${where}: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`, { issues });
}

function matches(run: DashboardRun, query: z.infer<typeof runsQuery>): boolean {
  if (query.state !== undefined && run.state !== query.state) return false;
  if (query.agent !== undefined && run.agent !== query.agent) return false;
  if (query.worker !== undefined && run.sessionId !== query.worker) return false;
  if (query.q !== undefined) {
    const q = query.q.toLowerCase();
    if (![run.task, run.runId, run.sessionId, run.taskId].some((text) => text.toLowerCase().includes(q))) return false;
  }
  return true;
}

/**
 * The dashboard as a Node request handler: the page (`/`, `/runs/<id>`), its script and style,
 * `GET /api/runs` (every run, filtered by `state`, `agent`, `worker`, `q`), `GET /api/runs/<id>` (the run,
 * its steps, plan, report and chain of continuations), their live versions as Server-Sent Events
 * (`GET /api/stream?…`, `GET /api/runs/<id>/stream`), `GET /api/runs/<id>/requests` (what was
 * asked of workers about it), and the actions `POST /api/runs/<id>/continue|resume|abandon|cancel`
 * (token and same origin required; see `takeRunAction`). Never throws: a failure answers 500 and
 * goes to `onInternalError`.
 *
 * @example
 * ```ts
 * const handler = createDashboardHandler({ checkpoints: new SqliteCheckpointStore('agent.db'), clock: systemClock });
 * createServer(handler).listen(4400, '127.0.0.1');
 * ```
 */
export function createDashboardHandler(options: DashboardHandlerOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const given = options as Partial<DashboardHandlerOptions> | null;
  if (
    typeof given !== 'object' ||
    given === null ||
    typeof given.checkpoints?.list !== 'function' ||
    typeof given.clock?.now !== 'function'
  ) {
    throw new DashboardError(
      'DASHBOARD_INVALID_OPTIONS',
      'createDashboardHandler: options.checkpoints (a CheckpointStore) and options.clock are required',
    );
  }
  const { checkpoints, clock, token } = options;
  const requests = options.requests ?? checkpoints.runRequests?.();
  const readOptions = { clock, ...(options.activeWithinMs === undefined ? {} : { activeWithinMs: options.activeWithinMs }) };
  const detailOptions = { ...readOptions, ...(options.reportsDir === undefined ? {} : { reportsDir: options.reportsDir }) };
  const pollMs = options.pollMs ?? 1000;
  const listRuns = async (query: z.infer<typeof runsQuery>): Promise<{ runs: DashboardRun[] }> => ({
    runs: (await readDashboardRuns(checkpoints, readOptions)).filter((run) => matches(run, query)),
  });
  const pollers = createSnapshotPollers({ clock, pollMs, onInternalError: options.onInternalError });
  const stream = (req: IncomingMessage, res: ServerResponse, key: string, event: string, read: () => Promise<unknown>): void => {
    streamSnapshots(req, res, pollers, { key, event, read, headers: HEADERS });
  };
  const authorized = (req: IncomingMessage): boolean =>
    token !== undefined && (sameToken(bearerToken(req), token) || sameToken(cookieToken(req), token));

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const target = req.url ?? '/';
    if (!target.startsWith('/')) {
      throw new DashboardError('DASHBOARD_BAD_REQUEST', 'bad request target: expected a path starting with /', {
        issues: [{ path: 'target', message: 'not a path' }],
      });
    }
    // Appended, not resolved: a target starting with // is a path here, never another host.
    const url = new URL(`http://dashboard.invalid${target}`);
    const path = url.pathname;
    const method = req.method ?? 'GET';
    if (method === 'GET' && path === '/auth') {
      const query = parseOrThrow(z.strictObject({ token: z.string().max(200) }), queryOf(url), 'query');
      if (token === undefined || !sameToken(query.token, token))
        throw new DashboardError('DASHBOARD_UNAUTHORIZED', 'that link is not valid');
      send(res, 303, 'text/plain; charset=utf-8', 'signed in', {
        location: '/',
        'set-cookie': `${TOKEN_COOKIE}=${token}; HttpOnly; SameSite=Strict; Path=/`,
      });
      return;
    }
    if (options.requireTokenToRead === true && !authorized(req)) {
      throw new DashboardError('DASHBOARD_UNAUTHORIZED', 'this dashboard needs its token: open the link `headway serve` printed');
    }
    if (options.live !== undefined && method === 'GET' && path.startsWith('/api/live/runs/')) {
      options.live(req, res);
      return;
    }
    if (method === 'GET' && (path === '/' || /^\/runs\/[^/]+$/.test(path))) {
      send(res, 200, 'text/html; charset=utf-8', PAGE_HTML);
      return;
    }
    if (method === 'GET' && (path === '/app.js' || path === '/live-worker.js')) {
      send(res, 200, 'text/javascript; charset=utf-8', pageScript(path === '/app.js' ? 'app.js' : 'live-worker.js'));
      return;
    }
    if (method === 'GET' && path === '/favicon.ico') {
      // No icon: an empty answer, so the browser does not log a failed load.
      send(res, 204, 'image/x-icon', '');
      return;
    }
    if (method === 'GET' && path === '/app.css') {
      send(res, 200, 'text/css; charset=utf-8', PAGE_CSS);
      return;
    }
    if (method === 'GET' && path === '/api/runs') {
      const query = parseOrThrow(runsQuery, queryOf(url), 'query');
      sendJson(res, 200, await listRuns(query));
      return;
    }
    if (method === 'GET' && path === '/api/stream') {
      const query = parseOrThrow(runsQuery, queryOf(url), 'query');
      // One poller per distinct filter: the key lists the filters in a fixed order.
      const key = `runs:${JSON.stringify([query.state, query.agent, query.worker, query.q])}`;
      stream(req, res, key, 'runs', () => listRuns(query));
      return;
    }
    const one = /^\/api\/runs\/([^/]+)(?:\/(abandon|continue|resume|cancel|requests|stream))?$/.exec(path);
    if (one?.[1] !== undefined) {
      let rawId: string;
      try {
        rawId = decodeURIComponent(one[1]);
      } catch {
        throw new DashboardError('DASHBOARD_BAD_REQUEST', 'bad path: the run id is not valid percent-encoding', {
          issues: [{ path: 'path.id', message: 'not valid percent-encoding' }],
        });
      }
      const id = parseOrThrow(idParam, rawId, 'path.id');
      if (one[2] === undefined && method === 'GET') {
        sendJson(res, 200, await readRunDetail(checkpoints, id, detailOptions));
        return;
      }
      if (one[2] === 'requests' && method === 'GET') {
        sendJson(res, 200, { requests: requests === undefined ? [] : redact(await requests.list({ runId: id })) });
        return;
      }
      if (one[2] === 'stream' && method === 'GET') {
        // A run that does not exist is a 404 now, not an error frame later.
        await readRunDetail(checkpoints, id, detailOptions);
        stream(req, res, `run:${id}`, 'run', () => readRunDetail(checkpoints, id, detailOptions));
        return;
      }
      if (one[2] !== undefined && one[2] !== 'requests' && one[2] !== 'stream' && method === 'POST') {
        if (!authorized(req))
          throw new DashboardError('DASHBOARD_UNAUTHORIZED', 'actions need the token: open the link `headway serve` printed');
        const origin = req.headers.origin;
        if (typeof origin !== 'string' || origin !== `http://${req.headers.host ?? ''}`) {
          throw new DashboardError('DASHBOARD_FORBIDDEN', 'actions are taken from the dashboard page only (Origin must be this server)');
        }
        const result = await takeRunAction(req, one[2] as DashboardAction, id, {
          checkpoints,
          requests,
          runOf: (summary, checkpoint) => dashboardRun(summary, checkpoint, readOptions),
        });
        sendJson(res, result.action === 'abandon' ? 200 : 202, { ok: true, ...redact(result) });
        return;
      }
    }
    throw new DashboardError('DASHBOARD_NOT_FOUND', `no page ${method} ${JSON.stringify(path.slice(0, 200))}`);
  }

  return (req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (error instanceof DashboardError) {
        sendError(res, error);
        return;
      }
      try {
        options.onInternalError?.(error, { where: 'request' });
      } catch {
        // The callback's own failure is ignored, as OnInternalError says.
      }
      if (!res.headersSent) sendJson(res, 500, { error: { code: 'DASHBOARD_INTERNAL', message: 'internal error' } });
      else res.destroy();
    });
  };
}
