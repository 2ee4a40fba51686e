import type { ProgressReport } from '@headway/protocol';
import { describe, expect, it } from 'vitest';
import { continuationPrompt } from './continuation-prompt.js';
import { midPlanReport } from './fixtures.test-util.js';

describe('continuationPrompt', () => {
  it('hands a follow-up agent the task, what is known, what to do and what not to repeat', () => {
    const report = midPlanReport();
    expect(continuationPrompt(report)).toMatchInlineSnapshot(`
      "You are continuing a task that an earlier run did not finish: it stopped because the cost budget ran out, after 3 iterations, 3 tool calls, 21s, $1.02.
      Build on its work below. Do not start over and do not redo what is already done.

      ## Task

      Add health checks to every service in docker-compose.yml

      ## What is already known

      Done so far:
      - Plan step 1 done: List the services in docker-compose.yml
      - Plan step 2 done: Find each service's health-check endpoint
      - read_file({"path":"docker-compose.yml"}) (iteration 1)
      - search({"query":"healthz|/health","path":"."}) (iteration 2)

      Findings (use them as they are, no need to look them up again):
      - read_file({"path":"docker-compose.yml"}) → services: api: build: ./api worker: build: ./worker web: build: ./web
      - Model note (iteration 2): Step 1 done: three services (api, worker, web). Moving on to step 2.
      - search({"query":"healthz|/health","path":"."}) → api/src/server.ts:31: app.get("/health", (_req, res) => res.send("ok"));
      - Model note (iteration 3): Step 2 complete: only api has a health endpoint (GET /health). Now step 3: add one to worker and web.

      ## What to do next

      Still to do:
      - Add a /healthz route where one is missing
      - Wire the checks into the compose file
      - Run \`docker compose up\` and confirm all services report healthy

      Suggested next steps, most important first:
      - Resume the plan at step 3: Add a /healthz route where one is missing
      - Then do the other 2 remaining plan steps (4, 5)
      - Find out why edit_file failed (once, last error: Patch rejected: file is read-only in this sandbox) and retry with corrected arguments or another tool

      ## Do not repeat

      These were tried and failed or gave nothing; only retry one with a different approach:
      - edit_file({"path":"worker/src/main.ts","patch":"+ http.createServer(...)"}) failed (iteration 3): Patch rejected: file is read-only in this sandbox"
    `);
  });

  it('leaves out empty sections and asks to finish when nothing is left', () => {
    const report: ProgressReport = {
      task: 'Count the TODOs',
      reason: 'time-budget',
      completedWork: [],
      keyFindings: ['There are 14 TODO comments:\n12 in src/, 2 in test/'],
      attemptedInconclusive: [],
      remaining: [],
      suggestedNextSteps: [],
      stats: { iterations: 2, toolCalls: 2, elapsedMs: 900 },
      generatedBy: 'model',
    };
    expect(continuationPrompt(report)).toMatchInlineSnapshot(`
      "You are continuing a task that an earlier run did not finish: it stopped because the time budget ran out, after 2 iterations, 2 tool calls, 900ms.
      Build on its work below. Do not start over and do not redo what is already done.

      ## Task

      Count the TODOs

      ## What is already known

      Findings (use them as they are, no need to look them up again):
      - There are 14 TODO comments:
        12 in src/, 2 in test/

      ## What to do next

      Check what is known above against the task, fill any gap, and give the final answer."
    `);
  });
});
