import { readFileSync } from 'node:fs';
import { HeadwayError } from '@headway/protocol';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  HOSTILE_RUN,
  HOSTILE_TEST_TIMEOUT,
  hostileFragmentString,
  hostileString,
  hostileValue,
  runIsolated,
  srcUrl,
} from './hostile.test-util.js';
import { MAX_WORKFLOW_BLOCK, MAX_WORKFLOW_LENGTH, parseWorkflow, workflowStepPercent } from './workflow.js';

const seedExample = readFileSync(new URL('../test/fixtures/WORKFLOW.md', import.meta.url), 'utf8');

function errorOf(markdown: string): HeadwayError {
  try {
    parseWorkflow(markdown);
  } catch (e) {
    if (HeadwayError.isInstance(e, 'ESTIMATOR_INVALID_WORKFLOW')) return e;
    throw e;
  }
  throw new Error('expected parseWorkflow to throw');
}

describe('parseWorkflow', () => {
  it('parses the reference example into steps with their slices', () => {
    expect(parseWorkflow(seedExample)).toEqual([
      {
        number: 1,
        title: 'Initial Analysis',
        weight: 20,
        start: 10,
        end: 26,
        parallel: true,
        calls: [
          { call: 'workers/analyzer', start: 10, end: 26 },
          { call: 'workers/planner', start: 10, end: 26 },
        ],
        line: 5,
      },
      {
        number: 2,
        title: 'Generate Content',
        weight: 60,
        start: 26,
        end: 74,
        parallel: false,
        calls: [{ call: 'workers/generator', start: 26, end: 74 }],
        line: 15,
      },
      {
        number: 3,
        title: 'Validate',
        weight: 20,
        start: 74,
        end: 90,
        parallel: false,
        calls: [{ call: 'workers/validator', start: 74, end: 90 }],
        line: 22,
      },
    ]);
  });

  it('gives a parallel group the mean of its members', () => {
    const [analysis, generate] = parseWorkflow(seedExample);
    expect(workflowStepPercent(analysis!, [100, 0])).toBe(18);
    expect(workflowStepPercent(analysis!, [100, 100])).toBe(26);
    expect(workflowStepPercent(analysis!, [])).toBe(10);
    expect(workflowStepPercent(generate!, [50])).toBe(50);
  });

  it('accepts yml and unlabelled fences and CRLF line ends', () => {
    const md = '## 1. Only\r\n\r\n```\r\ncall: workers/x\r\nweight: 5\r\n```\r\n## 2. Next\n~~~yml\ncall: workers/y\nweight: 15\n~~~\n';
    expect(parseWorkflow(md).map((s) => [s.title, s.start, s.end])).toEqual([
      ['Only', 10, 30],
      ['Next', 30, 90],
    ]);
  });

  it('names the line of invalid yaml', () => {
    const md = '## 1. Analyze\n\n```yaml\ncall: workers/a\nweight: [20\n```\n';
    expect(errorOf(md).message).toMatch(/^WORKFLOW\.md line \d+: step 1 \("Analyze"\): invalid yaml/);
  });

  it('names the line and path of a block of the wrong shape', () => {
    const md = '# W\n\n## 1. Analyze\n\n```yaml\ncall: workers/a\nweight: -3\n```\n';
    expect(errorOf(md).message).toBe('WORKFLOW.md line 6: step 1 ("Analyze"): weight: expected a positive number');
    const parallel = '## 1. Fan out\n```yaml\nparallel:\n  weight: 20\n  steps:\n    - call: 7\n```\n';
    expect(errorOf(parallel).message).toBe(
      'WORKFLOW.md line 3: step 1 ("Fan out"): parallel.steps[0].call: expected a worker name such as workers/x',
    );
    expect(errorOf('## 1. X\n```yaml\nfoo: bar\n```\n').message).toBe(
      'WORKFLOW.md line 3: step 1 ("X"): expected either { call, weight } or { parallel: { weight, steps } }',
    );
  });

  it('rejects a heading without a block, an unclosed block, a skipped number and an empty file', () => {
    expect(errorOf('## 1. Analyze\n\nJust prose.\n\n## 2. Next\n```yaml\ncall: a\nweight: 1\n```').message).toBe(
      'WORKFLOW.md line 1: step 1 ("Analyze") has no fenced yaml block',
    );
    expect(errorOf('## 1. A\n```yaml\ncall: a\nweight: 1\n').message).toBe(
      'WORKFLOW.md line 2: step 1 ("A"): the yaml block is never closed',
    );
    expect(errorOf('## 1. A\n```yaml\ncall: a\nweight: 1\n```\n## 3. C\n```yaml\ncall: c\nweight: 1\n```\n').message).toBe(
      'WORKFLOW.md line 6: expected step number 2, found 3',
    );
    expect(errorOf('# Nothing here\n').message).toMatch(/^WORKFLOW\.md line 1: no steps found/);
    expect(errorOf('## 1. A\n```json\n{}\n```\n').message).toBe('WORKFLOW.md line 2: step 1 ("A"): expected a yaml block, found "json"');
  });
});

describe('parseWorkflow on hostile input', () => {
  const block = '```yaml\ncall: workers/x\nweight: 5\n```\n';

  it(
    'reads a heading full of spaces in linear time (in a child process, so a hang fails)',
    () => {
      const run = runIsolated(`
      import { parseWorkflow } from '${srcUrl('workflow.ts')}';
      const steps = parseWorkflow('## 1. a' + ' '.repeat(1_000_000) + 'b ##\\n${block.replaceAll('\n', '\\n')}');
      console.log(steps[0].title.length, steps[0].title.startsWith('a '), steps[0].title.endsWith(' b'));
    `);
      expect(run.signal).toBeNull();
      expect(run.stdout.trim()).toBe('1000002 true true');
    },
    HOSTILE_TEST_TIMEOUT,
  );

  it(
    'refuses deeply nested yaml with a typed error naming the cap, every time (in a child process: the yaml parser can abort it)',
    () => {
      const run = runIsolated(`
      import { parseWorkflow } from '${srcUrl('workflow.ts')}';
      const nested = (open, close, n) => '## 1. Deep\\n\`\`\`yaml\\n' + open.repeat(n) + close.repeat(n) + '\\n\`\`\`\\n';
      for (const md of [nested('[', ']', 5_000), nested('[', ']', 5_000), nested('- ', '', 2_000), nested('{a: ', '}', 2_000)]) {
        try { parseWorkflow(md); console.log('parsed'); } catch (e) { console.log(e.code, e.message); }
      }
    `);
      expect(run.signal).toBeNull();
      expect(run.stderr).toBe('');
      expect(run.stdout.trim().split('\n')).toEqual([
        'ESTIMATOR_INVALID_WORKFLOW WORKFLOW.md line 3: step 1 ("Deep"): the yaml block nests 5001 levels deep; the limit is 32',
        'ESTIMATOR_INVALID_WORKFLOW WORKFLOW.md line 3: step 1 ("Deep"): the yaml block nests 5001 levels deep; the limit is 32',
        'ESTIMATOR_INVALID_WORKFLOW WORKFLOW.md line 3: step 1 ("Deep"): the yaml block nests 2001 levels deep; the limit is 32',
        'ESTIMATOR_INVALID_WORKFLOW WORKFLOW.md line 3: step 1 ("Deep"): the yaml block nests 2001 levels deep; the limit is 32',
      ]);
    },
    HOSTILE_TEST_TIMEOUT,
  );

  it('turns a billion-laughs block into the typed error, not a raw ReferenceError', () => {
    const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 9; i++) {
      const name = String.fromCharCode(97 + i);
      lines.push(`${name}: &${name} [${Array.from({ length: 9 }, () => `*${String.fromCharCode(96 + i)}`).join(',')}]`);
    }
    const error = errorOf(`## 1. Laughs\n\`\`\`yaml\n${lines.join('\n')}\n\`\`\`\n`);
    expect(error.message).toMatch(/^WORKFLOW\.md line 3: step 1 \("Laughs"\): invalid yaml: .*alias.* \(at most 16 aliases\)$/i);
  });

  it('refuses a file or a block over its cap, and a value that is not text, with the typed error', () => {
    expect(errorOf('x'.repeat(MAX_WORKFLOW_LENGTH + 1)).message).toBe(
      `WORKFLOW.md line 1: the file is ${MAX_WORKFLOW_LENGTH + 1} characters; the limit is 1048576`,
    );
    expect(errorOf(`## 1. Big\n\`\`\`yaml\n# ${'x'.repeat(MAX_WORKFLOW_BLOCK)}\n\`\`\`\n`).message).toBe(
      `WORKFLOW.md line 3: step 1 ("Big"): the yaml block is ${MAX_WORKFLOW_BLOCK + 2} characters; the limit is 16384`,
    );
    expect(errorOf(42 as unknown as string).message).toBe('WORKFLOW.md line 1: expected the text of a WORKFLOW.md, got number');
  });

  it('quotes at most 80 characters of a title in an error', () => {
    const message = errorOf(`## 1. ${'t'.repeat(10_000)}\nno block\n`).message;
    expect(message).toBe(`WORKFLOW.md line 1: step 1 ("${'t'.repeat(80)}…") has no fenced yaml block`);
  });

  it(
    'either returns steps or throws ESTIMATOR_INVALID_WORKFLOW, whatever the input (property, time-limited)',
    async () => {
      const workflowish = fc
        .array(fc.tuple(hostileFragmentString, fc.constantFrom('', 'yaml', 'json', 'yml'), hostileString), { maxLength: 5 })
        .map((steps) => steps.map(([title, lang, body], i) => `## ${i + 1}. ${title}\n\`\`\`${lang}\n${body}\n\`\`\`\n`).join(''));
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            workflowish.map((md) => () => md),
            hostileValue,
          ),
          async (input) => {
            try {
              const steps = parseWorkflow(input() as string);
              for (const s of steps) expect(s.start >= 10 && s.end <= 90 && s.start <= s.end).toBe(true);
            } catch (e) {
              expect(HeadwayError.isInstance(e, 'ESTIMATOR_INVALID_WORKFLOW')).toBe(true);
            }
            await Promise.resolve();
          },
        ),
        HOSTILE_RUN,
      );
    },
    HOSTILE_TEST_TIMEOUT,
  );
});
