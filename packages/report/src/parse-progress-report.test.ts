import { progressReportSchema, type ProgressReportStats } from '@headway/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HOSTILE_RUN, HOSTILE_TEST_TIMEOUT, hostileValue, runIsolated, srcUrl } from './hostile.test-util.js';
import { MAX_REPORT_LENGTH, MAX_REPORT_WARNINGS, parseProgressReport } from '@headway/protocol';

const stats: ProgressReportStats = { iterations: 30, toolCalls: 41, elapsedMs: 185_000 };
const defaults = { task: 'the task as given', reason: 'max-iterations', stats, generatedBy: 'model' } as const;

describe('parseProgressReport on reports models wrote', () => {
  it('reads h1/h2 headings, `*` bullets and ignores the prose around them', () => {
    const md = [
      "I've reached my iteration limit, so here is where things stand.",
      '',
      '# Progress Report',
      '',
      '## Task',
      'Find where auth tokens are validated in the API server.',
      '',
      '## Completed Work',
      'Here is what I managed to do:',
      '* Searched for `verifyToken` across src/ (15 matches)',
      '* Read `src/auth/middleware.ts`',
      '',
      '## Key Findings',
      '* Tokens are validated in `src/auth/middleware.ts:42` via `jwt.verify(token, JWT_SECRET)`',
      '* Expired tokens return **401** with `{"error":"token_expired"}`',
      '',
      '## Attempted but Inconclusive',
      '* Looked for a refresh endpoint in `src/routes/` — nothing found',
      '',
      '## Not Started / Remaining',
      '* Check refresh-token rotation',
      '',
      '## Suggested Next Steps',
      '* Read `src/auth/refresh.ts`',
      '* Grep for `rotateRefreshToken`',
      '',
      'Let me know if you want me to continue!',
    ].join('\n');
    const { report, warnings } = parseProgressReport(md, defaults);
    expect(warnings).toEqual([]);
    expect(report).toEqual({
      task: 'Find where auth tokens are validated in the API server.',
      reason: 'max-iterations',
      completedWork: ['Searched for `verifyToken` across src/ (15 matches)', 'Read `src/auth/middleware.ts`'],
      keyFindings: [
        'Tokens are validated in `src/auth/middleware.ts:42` via `jwt.verify(token, JWT_SECRET)`',
        'Expired tokens return **401** with `{"error":"token_expired"}`',
      ],
      attemptedInconclusive: ['Looked for a refresh endpoint in `src/routes/` — nothing found'],
      remaining: ['Check refresh-token rotation'],
      suggestedNextSteps: ['Read `src/auth/refresh.ts`', 'Grep for `rotateRefreshToken`'],
      stats,
      generatedBy: 'model',
    });
  });

  it('reads bold labels with inline text, numbered lists, and warns about a missing section', () => {
    const md = [
      '**PROGRESS REPORT**',
      '',
      '**Task:** Compare the pricing of three vector databases for 10M embeddings.',
      '',
      '**Completed Work:**',
      '1. Fetched the Pinecone pricing page',
      '2. Fetched the Qdrant Cloud pricing page',
      '',
      '**Key Findings:**',
      '1. Pinecone serverless: $0.33/GB/month storage, $8.25 per 1M read units',
      '2. Qdrant Cloud: 1 node (4 GB RAM) ≈ $65/month',
      '',
      '**Attempted but Inconclusive:**',
      '1. Weaviate pricing page returned HTTP 403 twice',
      '',
      '**Suggested Next Steps:**',
      '1. Try the Weaviate docs mirror',
    ].join('\n');
    const { report, warnings } = parseProgressReport(md, defaults);
    expect(report.task).toBe('Compare the pricing of three vector databases for 10M embeddings.');
    expect(report.completedWork).toEqual(['Fetched the Pinecone pricing page', 'Fetched the Qdrant Cloud pricing page']);
    expect(report.keyFindings).toEqual([
      'Pinecone serverless: $0.33/GB/month storage, $8.25 per 1M read units',
      'Qdrant Cloud: 1 node (4 GB RAM) ≈ $65/month',
    ]);
    expect(report.attemptedInconclusive).toEqual(['Weaviate pricing page returned HTTP 403 twice']);
    expect(report.remaining).toEqual([]);
    expect(report.suggestedNextSteps).toEqual(['Try the Weaviate docs mirror']);
    expect(warnings).toEqual(['missing section "Not Started / Remaining"; left empty']);
  });

  it('reads numbered headings, `1)` lists, "None." and synonyms of the section names', () => {
    const md = [
      '### 1. Task',
      'Migrate the billing service from Node 18 to Node 20.',
      '### 2. Work completed so far',
      '1) Updated `engines` in package.json',
      '2) Replaced `url.parse` with `new URL()` in 4 files',
      '### 3. Findings',
      '1) `node-sass` does not build on Node 20; `sass` is a drop-in replacement',
      '### 4. Dead ends',
      'None.',
      '### 5. Remaining work',
      '1) Run the integration tests',
      '### 6. Next steps',
      '1) Replace node-sass with sass',
    ].join('\n');
    const { report, warnings } = parseProgressReport(md, defaults);
    expect(warnings).toEqual([]);
    expect(report.task).toBe('Migrate the billing service from Node 18 to Node 20.');
    expect(report.completedWork).toEqual(['Updated `engines` in package.json', 'Replaced `url.parse` with `new URL()` in 4 files']);
    expect(report.keyFindings).toEqual(['`node-sass` does not build on Node 20; `sass` is a drop-in replacement']);
    expect(report.attemptedInconclusive).toEqual([]);
    expect(report.remaining).toEqual(['Run the integration tests']);
    expect(report.suggestedNextSteps).toEqual(['Replace node-sass with sass']);
  });

  it('reads a fenced report with `Label:` lines, nested bullets and continuation lines', () => {
    const md = [
      '```markdown',
      'PROGRESS REPORT',
      '',
      'Task: Summarise open security advisories for our dependencies',
      '',
      'Completed Work:',
      '- Ran `npm audit --json`',
      '',
      'Key Findings:',
      '- lodash 4.17.20: prototype pollution (CVE-2021-23337)',
      '  - fixed in 4.17.21',
      '- minimist 1.2.5: prototype pollution',
      '  upgrade to 1.2.8',
      '',
      'Attempted but Inconclusive:',
      '- none',
      '',
      'Not Started / Remaining:',
      '- Check transitive deps of `webpack`',
      '',
      'Suggested Next Steps:',
      '- `npm ls minimist` to see who pulls it in',
      '```',
    ].join('\n');
    const { report, warnings } = parseProgressReport(md, defaults);
    expect(warnings).toEqual([]);
    expect(report.task).toBe('Summarise open security advisories for our dependencies');
    expect(report.keyFindings).toEqual([
      'lodash 4.17.20: prototype pollution (CVE-2021-23337)\n- fixed in 4.17.21',
      'minimist 1.2.5: prototype pollution\nupgrade to 1.2.8',
    ]);
    expect(report.attemptedInconclusive).toEqual([]);
    expect(report.remaining).toEqual(['Check transitive deps of `webpack`']);
    expect(report.suggestedNextSteps).toEqual(['`npm ls minimist` to see who pulls it in']);
  });

  it('reads paragraphs as items when a section has no list, skips unknown sections and merges repeats', () => {
    const md = [
      '## PROGRESS REPORT',
      '#### Task',
      'Profile the slow /search endpoint.',
      '#### Completed Work',
      'I added timing logs around the database query and the ranking step.',
      '',
      'I ran 20 requests against staging.',
      '#### Notes',
      '- the staging database was under load during the test',
      '#### Key Findings',
      '+ p95 latency 2.4 s, of which the DB query is 2.1 s',
      '#### Key Findings',
      '+ The query does a sequential scan on `documents` (no index on `tenant_id`)',
      '#### Attempted but Inconclusive',
      '#### Not Started / Remaining',
      '+ Add the index and re-measure',
      '#### Recommended next steps',
      '+ `CREATE INDEX CONCURRENTLY ON documents (tenant_id)`',
    ].join('\n');
    const { report, warnings } = parseProgressReport(md, defaults);
    expect(report.completedWork).toEqual([
      'I added timing logs around the database query and the ranking step.',
      'I ran 20 requests against staging.',
    ]);
    expect(report.keyFindings).toEqual([
      'p95 latency 2.4 s, of which the DB query is 2.1 s',
      'The query does a sequential scan on `documents` (no index on `tenant_id`)',
    ]);
    expect(report.attemptedInconclusive).toEqual([]);
    expect(report.suggestedNextSteps).toEqual(['`CREATE INDEX CONCURRENTLY ON documents (tenant_id)`']);
    expect(warnings).toEqual([
      'unknown section "Notes" ignored',
      'section "Key Findings" appears more than once; its items were merged',
      'section "Completed Work" has no list; read 2 paragraphs as items',
    ]);
  });

  it('reads a stats line a model wrote in its own words', () => {
    const md = [
      '## Progress report',
      '**Stats:** Iterations: 12/12 | Tool calls: 1,034 | Elapsed: 4m 12s | Cost: $0.87 | stopped: cost-budget',
      '### Task',
      'x',
    ].join('\n');
    const { report } = parseProgressReport(md);
    expect(report.stats).toEqual({ iterations: 12, toolCalls: 1034, elapsedMs: 252_000, costUsd: 0.87 });
    expect(report.reason).toBe('cost-budget');
  });
});

describe('parseProgressReport defaults and warnings', () => {
  it('fills what the Markdown lacks from the defaults, silently', () => {
    const { report, warnings } = parseProgressReport('### Key Findings\n- 42', {
      ...defaults,
      stats: { ...stats, costUsd: 0.5 },
      generatedBy: 'fallback',
    });
    expect(report.task).toBe('the task as given');
    expect(report.stats).toEqual({ ...stats, costUsd: 0.5 });
    expect(report.generatedBy).toBe('fallback');
    expect(warnings.filter((w) => !w.startsWith('missing section "'))).toEqual([]);
    expect(warnings).not.toContain('missing section "Task"; task left empty');
  });

  it('says what it had to assume without defaults', () => {
    const { report, warnings } = parseProgressReport('Sorry, I could not finish.');
    expect(report).toEqual({
      task: '',
      reason: 'max-iterations',
      completedWork: [],
      keyFindings: [],
      attemptedInconclusive: [],
      remaining: [],
      suggestedNextSteps: [],
      stats: { iterations: 0, toolCalls: 0, elapsedMs: 0 },
      generatedBy: 'model',
    });
    expect(warnings).toEqual([
      'no report sections found',
      'missing section "Task"; task left empty',
      'missing section "Completed Work"; left empty',
      'missing section "Key Findings"; left empty',
      'missing section "Attempted but Inconclusive"; left empty',
      'missing section "Not Started / Remaining"; left empty',
      'missing section "Suggested Next Steps"; left empty',
      'no stats line; iterations, toolCalls, elapsedMs set to 0',
      'no stop reason given; assumed "max-iterations"',
    ]);
  });

  it('reads Windows line endings like Unix ones', () => {
    const md = '## PROGRESS REPORT\r\n### Task\r\nShip it\r\n### Key Findings\r\n- one\r\n  two\r\n';
    const { report } = parseProgressReport(md, defaults);
    expect(report.task).toBe('Ship it');
    expect(report.keyFindings).toEqual(['one\ntwo']);
  });

  it('reports an unknown stop reason instead of guessing', () => {
    const { report, warnings } = parseProgressReport('**Stats:** 3 iterations · 2 tool calls · 10 ms elapsed · stopped: bored', defaults);
    expect(report.reason).toBe('max-iterations');
    expect(warnings).toContain('stats: unknown stop reason "bored" ignored');
  });

  it('never throws and always returns a valid report, whatever the text', () => {
    const line = fc.oneof(
      fc.string(),
      fc.constantFrom(
        '## Task',
        '**Key Findings:**',
        '- item',
        '  continued',
        '1. **Completed Work**',
        '```',
        '---',
        'None.',
        '**Stats:** 1 iterations',
      ),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 20 }), (lines) => {
        const { report, warnings } = parseProgressReport(lines.join('\n'));
        expect(progressReportSchema.safeParse(report).success).toBe(true);
        expect(Array.isArray(warnings)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});

describe('parseProgressReport on hostile text', () => {
  it(
    'reads lines of a million characters in linear time: a heading full of spaces, a long stats number, a long "none" item (in a child process, so a hang fails)',
    () => {
      const run = runIsolated(`
      import { parseProgressReport } from '${srcUrl('index.ts')}';
      const spaces = ' '.repeat(1_000_000);
      const heading = parseProgressReport('## Task\\nt\\n# a' + spaces + 'b');
      const stats = parseProgressReport('## Task\\nt\\n**Stats:** ' + '1'.repeat(1_000_000) + ' iterations · 12 ms elapsed');
      const none = parseProgressReport('## Completed Work\\n- ___none' + spaces + 'x');
      console.log(JSON.stringify([heading.warnings[0], stats.report.stats, none.report.completedWork[0].length]));
    `);
      expect(run.signal).toBeNull();
      expect(JSON.parse(run.stdout) as unknown).toEqual([
        `unknown section "a${' '.repeat(78)}…" ignored`,
        { iterations: 0, toolCalls: 0, elapsedMs: 12 },
        1_000_008,
      ]);
    },
    HOSTILE_TEST_TIMEOUT,
  );

  it('reads the stats a model wrote even when they are buried in long runs', () => {
    const { report } = parseProgressReport(
      `## Task\nt\n**Stats:** ${'x '.repeat(50_000)}3 iterations · tool calls:${' '.repeat(50_000)}7 · 5 ms elapsed`,
    );
    expect(report.stats).toEqual({ iterations: 3, toolCalls: 7, elapsedMs: 5 });
  });

  it('reads at most MAX_REPORT_LENGTH characters, and says so', () => {
    const { report, warnings } = parseProgressReport(`## Task\nthe task\n${'x'.repeat(MAX_REPORT_LENGTH)}`);
    expect(report.task.startsWith('the task')).toBe(true);
    expect(warnings[0]).toBe(`the text is ${MAX_REPORT_LENGTH + 17} characters; only the first 1048576 were read`);
  });

  it('returns at most MAX_REPORT_WARNINGS warnings, then how many more', () => {
    const { warnings } = parseProgressReport(Array.from({ length: 500 }, (_, i) => `## Task\nt\n## Unknown ${i}\nx`).join('\n'));
    expect(warnings).toHaveLength(MAX_REPORT_WARNINGS + 1);
    expect(warnings[MAX_REPORT_WARNINGS]).toMatch(/^and \d+ more warnings$/);
  });

  it(
    'returns a valid report for any text and never throws (property, hostile generators, time-limited)',
    async () => {
      await fc.assert(
        fc.asyncProperty(hostileValue, async (input) => {
          const { report, warnings } = parseProgressReport(input() as string, defaults);
          expect(progressReportSchema.safeParse(report).success).toBe(true);
          expect(warnings.length).toBeLessThanOrEqual(MAX_REPORT_WARNINGS + 1);
          await Promise.resolve();
        }),
        HOSTILE_RUN,
      );
    },
    HOSTILE_TEST_TIMEOUT,
  );
});
