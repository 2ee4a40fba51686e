// Realistic tool-call logs shared by this package's tests, and the fallback reports built from them.
import type { ProgressReport } from '@headway/protocol';
import { buildFallbackReport } from './fallback-report.js';
import { expect } from 'vitest';
import { ToolCallLog } from './tool-call-log.js';

/** A code-search run that hit its iteration limit while tracing token validation. */
function codeSearchLog(): ToolCallLog {
  const log = new ToolCallLog();
  log.recordToolCall({
    iteration: 1,
    name: 'search',
    args: { query: 'verifyToken', path: 'src/' },
    result:
      'Found 3 matching records:\nsrc/auth/middleware.ts:42:  const claims = verifyToken(header.slice(7));\nsrc/auth/jwt.ts:18:export function verifyToken(token: string): Claims {\nsrc/routes/admin.ts:9:  verifyToken(req.headers.authorization ?? "");',
    ok: true,
    durationMs: 184,
  });
  log.recordToolCall({
    iteration: 2,
    name: 'read_file',
    args: { path: 'src/auth/jwt.ts', startLine: 10, endLine: 40 },
    result:
      'export function verifyToken(token: string): Claims {\n  const claims = jwt.verify(token, process.env.JWT_SECRET!, { algorithms: ["HS256"] });\n  if (typeof claims === "string") throw new AuthError("malformed");\n  return claims as Claims;\n}',
    ok: true,
    durationMs: 12,
  });
  log.recordText({
    iteration: 3,
    text: 'verifyToken relies on jwt.verify, which checks `exp` itself. Next I need to see whether the admin route handles the thrown error.',
  });
  log.recordToolCall({
    iteration: 3,
    name: 'read_file',
    args: { path: 'src/routes/admin.ts' },
    result: new Error('EACCES: permission denied, open src/routes/admin.ts'),
    ok: false,
    durationMs: 2,
  });
  log.recordToolCall({
    iteration: 4,
    name: 'search',
    args: { query: 'AuthError', path: 'src/routes/' },
    result: 'No results found',
    ok: true,
    durationMs: 95,
  });
  log.recordToolCall({
    iteration: 5,
    name: 'search',
    args: { query: 'verifyToken', path: 'src/' },
    result: 'Found 3 matching records:\nsrc/auth/middleware.ts:42:  const claims = verifyToken(header.slice(7));',
    ok: true,
    durationMs: 170,
  });
  return log;
}

/** A research run with failing fetches, an empty search and a repeated call, stopped by its time budget. */
export function researchLog(): ToolCallLog {
  const log = new ToolCallLog();
  log.recordText({ iteration: 1, text: 'I will compare managed Postgres offerings on price for a 4 vCPU / 16 GB instance.' });
  log.recordToolCall({
    iteration: 1,
    name: 'web_search',
    args: { q: 'AWS RDS postgres db.m6g.xlarge price per hour' },
    result: 'RDS for PostgreSQL db.m6g.xlarge (4 vCPU, 16 GiB) On-Demand us-east-1: $0.318 per hour',
    ok: true,
    durationMs: 900,
  });
  log.recordToolCall({
    iteration: 2,
    name: 'fetch_url',
    args: { url: 'https://cloud.google.com/sql/pricing', apiKey: 'AIzaSyA-not-a-real-key-0123456789abcdefg' },
    result: 'HTTP 403 Forbidden',
    ok: false,
    durationMs: 410,
  });
  log.recordToolCall({
    iteration: 3,
    name: 'fetch_url',
    args: { url: 'https://cloud.google.com/sql/pricing', apiKey: 'AIzaSyA-not-a-real-key-0123456789abcdefg' },
    result: 'HTTP 403 Forbidden',
    ok: false,
    durationMs: 388,
  });
  log.recordToolCall({
    iteration: 4,
    name: 'web_search',
    args: { q: 'Azure Database for PostgreSQL flexible server D4s v3 price' },
    result: '[]',
    ok: true,
    durationMs: 1200,
  });
  log.recordText({
    iteration: 5,
    text: 'Cloud SQL pricing page blocks the fetcher. Azure search gave nothing; will try the Azure retail prices API instead.',
  });
  log.recordToolCall({
    iteration: 5,
    name: 'fetch_url',
    args: { url: "https://prices.azure.com/api/retail/prices?$filter=serviceName eq 'Azure Database for PostgreSQL'" },
    result: new Error('ETIMEDOUT after 30000 ms'),
    ok: false,
    durationMs: 30_000,
  });
  return log;
}

/** A run that wrote a plan, finished two of its five steps and was stopped by its cost budget. */
export function midPlanLog(): ToolCallLog {
  const log = new ToolCallLog();
  log.recordText({
    iteration: 1,
    text: "Plan:\n1. List the services in docker-compose.yml\n2. Find each service's health-check endpoint\n3. Add a /healthz route where one is missing\n4. Wire the checks into the compose file\n5. Run `docker compose up` and confirm all services report healthy",
  });
  log.recordToolCall({
    iteration: 1,
    name: 'read_file',
    args: { path: 'docker-compose.yml' },
    result: 'services:\n  api:\n    build: ./api\n  worker:\n    build: ./worker\n  web:\n    build: ./web',
    ok: true,
    durationMs: 8,
  });
  log.recordText({ iteration: 2, text: 'Step 1 done: three services (api, worker, web). Moving on to step 2.' });
  log.recordToolCall({
    iteration: 2,
    name: 'search',
    args: { query: 'healthz|/health', path: '.' },
    result: 'api/src/server.ts:31: app.get("/health", (_req, res) => res.send("ok"));',
    ok: true,
    durationMs: 66,
  });
  log.recordText({
    iteration: 3,
    text: 'Step 2 complete: only api has a health endpoint (GET /health). Now step 3: add one to worker and web.',
  });
  log.recordToolCall({
    iteration: 3,
    name: 'edit_file',
    args: { path: 'worker/src/main.ts', patch: '+ http.createServer(...)' },
    result: 'Patch rejected: file is read-only in this sandbox',
    ok: false,
    durationMs: 5,
  });
  return log;
}

/** The fallback report of {@link codeSearchLog}: the iteration limit after 5 iterations. */
export function codeSearchReport(): ProgressReport {
  const log = codeSearchLog();
  return buildFallbackReport({
    task: 'Find where auth tokens are validated and whether expired tokens are rejected',
    log,
    reason: 'max-iterations',
    stats: { iterations: 5, toolCalls: log.toolCallCount, elapsedMs: 48_250 },
  });
}

/** The fallback report of {@link researchLog}: the time budget after 10 minutes. */
export function researchReport(): ProgressReport {
  const log = researchLog();
  return buildFallbackReport({
    task: 'Compare managed Postgres prices (4 vCPU / 16 GB) on AWS, GCP and Azure',
    log,
    reason: 'time-budget',
    stats: { iterations: 5, toolCalls: log.toolCallCount, elapsedMs: 600_000, costUsd: 0.0731 },
  });
}

/** The fallback report of {@link midPlanLog}: the cost budget in the middle of the plan. */
export function midPlanReport(): ProgressReport {
  const log = midPlanLog();
  return buildFallbackReport({
    task: 'Add health checks to every service in docker-compose.yml',
    log,
    reason: 'cost-budget',
    stats: { iterations: 3, toolCalls: log.toolCallCount, elapsedMs: 21_400, costUsd: 1.02 },
  });
}

/** A run that kept a plan with update_plan: one item done, one in progress, one pending. */
export function planLog(): ToolCallLog {
  const log = new ToolCallLog();
  // Model text with a plan of its own: the plan kept with update_plan wins over it.
  log.recordText({ iteration: 1, text: 'Plan:\n1. Something else\n2. And more' });
  expect(log.recordPlan([{ text: 'Old list', status: 'pending' }])).toBe(true);
  log.recordToolCall({
    iteration: 2,
    name: 'read_file',
    args: { path: 'src/auth.ts' },
    result: 'export function login() {}',
    ok: true,
    durationMs: 5,
  });
  expect(
    log.recordPlan([
      { id: 'a', text: 'Find the login code', status: 'completed' },
      { id: 'b', text: 'Fix the token check', status: 'in_progress' },
      { id: 'c', text: 'Add a test', status: 'pending' },
    ]),
  ).toBe(true);
  return log;
}
