import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildFallbackReport } from './fallback-report.js';
import { codeSearchReport, midPlanReport, planLog, researchReport } from './fixtures.test-util.js';
import { renderProgressReport } from '@headway/protocol';
import { ToolCallLog } from './tool-call-log.js';

describe('buildFallbackReport', () => {
  it('reports a code-search run from its log alone', () => {
    const report = codeSearchReport();
    expect(renderProgressReport(report)).toMatchInlineSnapshot(`
      "## PROGRESS REPORT

      **Stats:** 5 iterations · 5 tool calls · 48250 ms elapsed (48s) · stopped: max-iterations (the iteration limit was reached) · written by: fallback

      ### Task

      Find where auth tokens are validated and whether expired tokens are rejected

      ### Completed Work

      - search({"query":"verifyToken","path":"src/"}) (iterations 1, 5)
      - read_file({"path":"src/auth/jwt.ts","startLine":10,"endLine":40}) (iteration 2)

      ### Key Findings

      - search({"query":"verifyToken","path":"src/"}) → Found 3 matching records: src/auth/middleware.ts:42: const claims = verifyToken(header.slice(7)); src/auth/jwt.ts:18:export function verifyToken(token: string): Claims { src/routes/admin.ts:9: verifyToken(req.headers.authorization ?? "");
      - read_file({"path":"src/auth/jwt.ts","startLine":10,"endLine":40}) → export function verifyToken(token: string): Claims { const claims = jwt.verify(token, process.env.JWT_SECRET!, { algorithms: ["HS256"] }); if (typeof claims === "string") throw new AuthError("malformed"); return claims as Claims; }
      - Model note (iteration 3): verifyToken relies on jwt.verify, which checks \`exp\` itself. Next I need to see whether the admin route handles the thrown error.
      - search({"query":"verifyToken","path":"src/"}) → Found 3 matching records: src/auth/middleware.ts:42: const claims = verifyToken(header.slice(7));

      ### Attempted but Inconclusive

      - search({"query":"verifyToken","path":"src/"}) was called 2 times with the same arguments (iterations 1, 5)
      - read_file({"path":"src/routes/admin.ts"}) failed (iteration 3): EACCES: permission denied, open src/routes/admin.ts
      - search({"query":"AuthError","path":"src/routes/"}) returned nothing (iteration 4)

      ### Not Started / Remaining

      - The task, not finished when the run stopped: Find where auth tokens are validated and whether expired tokens are rejected

      ### Suggested Next Steps

      - Find out why read_file failed (once, last error: EACCES: permission denied, open src/routes/admin.ts) and retry with corrected arguments or another tool
      - Rephrase or broaden the calls that returned nothing: search({"query":"AuthError","path":"src/routes/"})
      - Do not call search({"query":"verifyToken","path":"src/"}) again: its result is under Key Findings
      - Check the Key Findings against the task and finish it: Find where auth tokens are validated and whether expired tokens are rejected
      "
    `);
  });

  it('reports a research run with failures, an empty result and a repeated call', () => {
    const report = researchReport();
    expect(renderProgressReport(report)).toMatchInlineSnapshot(`
      "## PROGRESS REPORT

      **Stats:** 5 iterations · 5 tool calls · 600000 ms elapsed (10m 00s) · cost $0.0731 · stopped: time-budget (the time budget ran out) · written by: fallback

      ### Task

      Compare managed Postgres prices (4 vCPU / 16 GB) on AWS, GCP and Azure

      ### Completed Work

      - web_search({"q":"AWS RDS postgres db.m6g.xlarge price per hour"}) (iteration 1)

      ### Key Findings

      - Model note (iteration 1): I will compare managed Postgres offerings on price for a 4 vCPU / 16 GB instance.
      - web_search({"q":"AWS RDS postgres db.m6g.xlarge price per hour"}) → RDS for PostgreSQL db.m6g.xlarge (4 vCPU, 16 GiB) On-Demand us-east-1: $0.318 per hour
      - Model note (iteration 5): Cloud SQL pricing page blocks the fetcher. Azure search gave nothing; will try the Azure retail prices API instead.

      ### Attempted but Inconclusive

      - fetch_url({"url":"https://cloud.google.com/sql/pricing","apiKey":"[REDACTED]"}) failed 2 times (iterations 2, 3): HTTP 403 Forbidden
      - web_search({"q":"Azure Database for PostgreSQL flexible server D4s v3 price"}) returned nothing (iteration 4)
      - fetch_url({"url":"https://prices.azure.com/api/retail/prices?$filter=serviceName eq 'Azure Database for PostgreSQL'"}) failed (iteration 5): ETIMEDOUT after 30000 ms

      ### Not Started / Remaining

      - The task, not finished when the run stopped: Compare managed Postgres prices (4 vCPU / 16 GB) on AWS, GCP and Azure

      ### Suggested Next Steps

      - Find out why fetch_url failed (3 times, last error: ETIMEDOUT after 30000 ms) and retry with corrected arguments or another tool
      - Rephrase or broaden the calls that returned nothing: web_search({"q":"Azure Database for PostgreSQL flexible server D4s v3 price"})
      - Check the Key Findings against the task and finish it: Compare managed Postgres prices (4 vCPU / 16 GB) on AWS, GCP and Azure
      "
    `);
  });

  it('reports a run stopped in the middle of its plan', () => {
    const report = midPlanReport();
    expect(renderProgressReport(report)).toMatchInlineSnapshot(`
      "## PROGRESS REPORT

      **Stats:** 3 iterations · 3 tool calls · 21400 ms elapsed (21s) · cost $1.02 · stopped: cost-budget (the cost budget ran out) · written by: fallback

      ### Task

      Add health checks to every service in docker-compose.yml

      ### Completed Work

      - Plan step 1 done: List the services in docker-compose.yml
      - Plan step 2 done: Find each service's health-check endpoint
      - read_file({"path":"docker-compose.yml"}) (iteration 1)
      - search({"query":"healthz|/health","path":"."}) (iteration 2)

      ### Key Findings

      - read_file({"path":"docker-compose.yml"}) → services: api: build: ./api worker: build: ./worker web: build: ./web
      - Model note (iteration 2): Step 1 done: three services (api, worker, web). Moving on to step 2.
      - search({"query":"healthz|/health","path":"."}) → api/src/server.ts:31: app.get("/health", (_req, res) => res.send("ok"));
      - Model note (iteration 3): Step 2 complete: only api has a health endpoint (GET /health). Now step 3: add one to worker and web.

      ### Attempted but Inconclusive

      - edit_file({"path":"worker/src/main.ts","patch":"+ http.createServer(...)"}) failed (iteration 3): Patch rejected: file is read-only in this sandbox

      ### Not Started / Remaining

      - Add a /healthz route where one is missing
      - Wire the checks into the compose file
      - Run \`docker compose up\` and confirm all services report healthy

      ### Suggested Next Steps

      - Resume the plan at step 3: Add a /healthz route where one is missing
      - Then do the other 2 remaining plan steps (4, 5)
      - Find out why edit_file failed (once, last error: Patch rejected: file is read-only in this sandbox) and retry with corrected arguments or another tool
      "
    `);
  });

  it('folds the summarised middle of a long run into counts and failure samples', () => {
    const log = new ToolCallLog({ maxEntries: 8, keepFirst: 2 });
    for (let step = 1; step <= 10_000; step++) {
      const ok = step % 1000 !== 0;
      log.recordToolCall({
        iteration: step,
        name: step % 2 === 0 ? 'read_file' : 'search',
        args: { n: step },
        result: ok ? `line ${step}` : 'timeout',
        ok,
        durationMs: 1,
      });
    }
    const report = buildFallbackReport({
      task: 'Index the corpus',
      log,
      reason: 'max-iterations',
      stats: { iterations: 10_000, toolCalls: 10_000, elapsedMs: 1 },
    });
    expect(report.completedWork).toContain('Iterations 3–9994 (summarised): 9,992 tool calls — search ×4,996, read_file ×4,996 (9 failed)');
    expect(report.attemptedInconclusive.slice(0, 3)).toEqual([
      'read_file({"n":10000}) failed (iteration 10000): timeout',
      '9 failed calls in the summarised iterations 3–9994: read_file ×9',
      'read_file({"n":1000}) failed (iteration 1000): timeout',
    ]);
    expect(report.attemptedInconclusive).toHaveLength(11);
  });

  it('caps each section and says how much it left out', () => {
    const log = new ToolCallLog({ maxEntries: 1000 });
    for (let step = 1; step <= 500; step++)
      log.recordToolCall({ iteration: step, name: 'read', args: { n: step }, result: `value ${step}`, ok: true, durationMs: 1 });
    const report = buildFallbackReport({
      task: 't',
      log,
      reason: 'max-iterations',
      stats: { iterations: 1, toolCalls: 500, elapsedMs: 1 },
      maxItemsPerSection: 10,
    });
    expect(report.keyFindings).toEqual([
      'read({"n":1}) → value 1',
      'read({"n":2}) → value 2',
      '(491 more items left out; see the tool-call log)',
      ...Array.from({ length: 7 }, (_, i) => `read({"n":${494 + i}}) → value ${494 + i}`),
    ]);
    expect(
      buildFallbackReport({ task: 't', log, reason: 'max-iterations', stats: { iterations: 1, toolCalls: 500, elapsedMs: 1 } })
        .completedWork,
    ).toHaveLength(100);
  });

  it('suggests starting the task when the log is empty', () => {
    const report = buildFallbackReport({
      task: 'Write the changelog',
      log: new ToolCallLog(),
      reason: 'cancelled',
      stats: { iterations: 0, toolCalls: 0, elapsedMs: 0 },
    });
    expect(report).toEqual({
      task: 'Write the changelog',
      reason: 'cancelled',
      completedWork: [],
      keyFindings: [],
      attemptedInconclusive: [],
      remaining: ['The task, not finished when the run stopped: Write the changelog'],
      suggestedNextSteps: ['Start the task: Write the changelog'],
      stats: { iterations: 0, toolCalls: 0, elapsedMs: 0 },
      generatedBy: 'fallback',
    });
  });

  it('lists the work in flight and the open plan items under remaining, never nothing', () => {
    const log = new ToolCallLog();
    log.recordPlan([
      { text: 'List the packages', status: 'completed' },
      { text: 'Read each README', status: 'in_progress' },
      { text: 'Write the summary', status: 'pending' },
    ]);
    const report = buildFallbackReport({
      task: 'Summarize the packages',
      log,
      reason: 'cancelled',
      stats: { iterations: 2, toolCalls: 1, elapsedMs: 10 },
      unfinished: ['read_file: started, not finished'],
    });
    expect(report.remaining).toEqual(['read_file: started, not finished', 'Read each README (in progress)', 'Write the summary']);
  });

  it('is deterministic and never empty when the log has content', () => {
    const entry = fc.oneof(
      fc.record({
        kind: fc.constant('tool' as const),
        name: fc.constantFrom('search', 'read', 'fetch'),
        args: fc.constantFrom({ q: 'a' }, { q: 'b' }, undefined, 'raw'),
        result: fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom('', '[]', 'No results found', null)),
        ok: fc.boolean(),
      }),
      fc.record({
        kind: fc.constant('text' as const),
        text: fc.oneof(fc.string({ maxLength: 60 }), fc.constantFrom('Plan:\n1. a\n2. b', 'Step 1 done.', '- [x] a\n- [ ] b')),
      }),
    );
    fc.assert(
      fc.property(fc.array(entry, { minLength: 1, maxLength: 30 }), fc.integer({ min: 2, max: 10 }), (entries, maxEntries) => {
        const build = (): ReturnType<typeof buildFallbackReport> => {
          const log = new ToolCallLog({ maxEntries });
          entries.forEach((e, step) => {
            if (e.kind === 'tool')
              log.recordToolCall({ iteration: step, name: e.name, args: e.args, result: e.result, ok: e.ok, durationMs: 1 });
            else log.recordText({ iteration: step, text: e.text });
          });
          return buildFallbackReport({
            task: 't',
            log,
            reason: 'max-iterations',
            stats: { iterations: 1, toolCalls: log.toolCallCount, elapsedMs: 1 },
          });
        };
        const report = build();
        expect(build()).toEqual(report);
        const hasContent = entries.some((e) => e.kind === 'tool' || e.text.trim() !== '');
        const items =
          report.completedWork.length + report.keyFindings.length + report.attemptedInconclusive.length + report.remaining.length;
        if (hasContent) expect(items).toBeGreaterThan(0);
        expect(report.suggestedNextSteps.length).toBeGreaterThan(0);
      }),
      { numRuns: 400 },
    );
  });
});

describe('buildFallbackReport with the agent plan', () => {
  it('fills Completed Work and Not Started / Remaining from the latest plan', () => {
    const report = buildFallbackReport({
      task: 'Fix login',
      log: planLog(),
      reason: 'max-iterations',
      stats: { iterations: 2, toolCalls: 1, elapsedMs: 1000 },
    });
    expect(report.completedWork[0]).toBe('Plan item done: Find the login code');
    expect(report.remaining).toEqual(['Fix the token check (in progress)', 'Add a test']);
    expect(report.suggestedNextSteps.slice(0, 2)).toEqual([
      'Resume the plan at item 2: Fix the token check',
      'Then do the other 1 remaining plan step (3)',
    ]);
  });
});
