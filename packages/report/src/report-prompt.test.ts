import { describe, expect, it } from 'vitest';
import { midPlanLog, planLog, researchLog } from './fixtures.test-util.js';
import { buildReportPrompt } from './report-prompt.js';
import { ToolCallLog } from './tool-call-log.js';

describe('buildReportPrompt', () => {
  it('tells the model why it must stop, the six sections, to include data inline, and what it did', () => {
    expect(
      buildReportPrompt('cost-budget', {
        task: 'Add health checks to every service',
        log: midPlanLog(),
        limits: { costUsd: 1.02, costBudgetUsd: 1 },
      }),
    ).toMatchInlineSnapshot(`
        "STOP: Your cost budget is used up ($1.02 of $1.00). You cannot call any more tools, and the task is not finished.

        Do not answer that you were unable to complete the task. Instead, write a progress report that lets another agent (or a person) continue from exactly where you stopped, without starting over.

        Include ALL useful data you gathered inline — do not just say that you found X, include X: file paths and line numbers, names, values, URLs, quotes, numbers, partial results.

        Use exactly this format:

        ## PROGRESS REPORT

        ### Task
        The original task, restated in one or two sentences.

        ### Completed Work
        - What you did and what each step produced.

        ### Key Findings
        - Every fact, result and piece of data you found, written out in full.

        ### Attempted but Inconclusive
        - What you tried that failed or gave no answer, and why, so nobody repeats it blindly.

        ### Not Started / Remaining
        - The parts of the task you have not started or not finished.

        ### Suggested Next Steps
        - Concrete next actions, most important first (which tool, which arguments, which file).

        Write "None." under a section that has nothing. Use bullet points for items.

        The task was:
        Add health checks to every service

        Your activity so far (oldest first):
        [iteration 1] (model) Plan: 1. List the services in docker-compose.yml 2. Find each service's health-check endpoint 3. Add a /healthz route where one…
        [iteration 1] read_file({"path":"docker-compose.yml"}) → services: api: build: ./api worker: build: ./worker web: build: ./web
        [iteration 2] (model) Step 1 done: three services (api, worker, web). Moving on to step 2.
        [iteration 2] search({"query":"healthz|/health","path":"."}) → api/src/server.ts:31: app.get("/health", (_req, res) => res.send("ok"));
        [iteration 3] (model) Step 2 complete: only api has a health endpoint (GET /health). Now step 3: add one to worker and web.
        [iteration 3] edit_file({"path":"worker/src/main.ts","patch":"+ http.createServer(...)"}) → failed: Patch rejected: file is read-only in this sandbox"
      `);
  });

  it('words each stop reason with the limits it is given', () => {
    const first = (reason: Parameters<typeof buildReportPrompt>[0], limits = {}): string =>
      buildReportPrompt(reason, { task: 't', log: new ToolCallLog(), limits }).split('\n')[0] ?? '';
    expect(first('max-iterations', { iterations: 30, maxIterations: 30 })).toBe(
      'STOP: You have reached the iteration limit (30 of 30). You cannot call any more tools, and the task is not finished.',
    );
    expect(first('time-budget', { elapsedMs: 600_000, timeBudgetMs: 600_000 })).toContain(
      'Your time budget is used up (10m 00s of 10m 00s).',
    );
    expect(first('negotiated-timeout', { elapsedMs: 1_800_000 })).toContain(
      'Your time budget is used up (30m 00s used) and the request for more time was declined.',
    );
    expect(first('cancelled')).toContain('The run was cancelled.');
    expect(first('error')).toContain('The run hit an error it cannot recover from.');
    expect(first('stalled', { stall: 'ls src/work 5× with the same result' })).toBe(
      'STOP: You are stuck repeating yourself (ls src/work 5× with the same result); the run is being stopped so the budget is not burnt on the loop. Say under Attempted but Inconclusive what looped. You cannot call any more tools, and the task is not finished.',
    );
  });

  it('shortens a long activity log to its first and most recent lines', () => {
    const log = new ToolCallLog({ maxEntries: 1000 });
    for (let step = 1; step <= 300; step++)
      log.recordToolCall({ iteration: step, name: 'read', args: { n: step }, result: 'ok', ok: true, durationMs: 1 });
    const lines = buildReportPrompt('max-iterations', { task: 't', log, maxActivityLines: 10 }).split('\n');
    const activity = lines.slice(lines.indexOf('Your activity so far (oldest first):') + 1);
    expect(activity).toEqual([
      '[iteration 1] read({"n":1}) → ok',
      '[iteration 2] read({"n":2}) → ok',
      '… 291 more lines …',
      ...Array.from({ length: 7 }, (_, i) => `[iteration ${294 + i}] read({"n":${294 + i}}) → ok`),
    ]);
    expect(buildReportPrompt('max-iterations', { task: 't', log: new ToolCallLog() })).toMatch(/\(no tool calls yet\)$/);
  });

  it('carries the research log with its failures', () => {
    const prompt = buildReportPrompt('time-budget', { task: 'Compare Postgres prices', log: researchLog() });
    expect(prompt).toContain(
      '[iteration 3] fetch_url({"url":"https://cloud.google.com/sql/pricing","apiKey":"[REDACTED]"}) → failed: HTTP 403 Forbidden',
    );
    expect(prompt).toContain('include X');
  });
});

describe('buildReportPrompt with the agent plan', () => {
  it('shows the plan to the model that writes the report', () => {
    const prompt = buildReportPrompt('max-iterations', { task: 'Fix login', log: planLog() });
    expect(prompt).toContain('[x] Find the login code\n[~] Fix the token check\n[ ] Add a test');
  });
});
