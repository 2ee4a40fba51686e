import { readFileSync } from 'node:fs';
import { HeadwayError } from '@headway/protocol';
import { describe, expect, it } from 'vitest';
import { parseWorkflow, workflowStepPercent } from './workflow.js';

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
      { number: 3, title: 'Validate', weight: 20, start: 74, end: 90, parallel: false, calls: [{ call: 'workers/validator', start: 74, end: 90 }], line: 22 },
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
    expect(errorOf(parallel).message).toBe('WORKFLOW.md line 3: step 1 ("Fan out"): parallel.steps[0].call: expected a worker name such as workers/x');
    expect(errorOf('## 1. X\n```yaml\nfoo: bar\n```\n').message).toBe(
      'WORKFLOW.md line 3: step 1 ("X"): expected either { call, weight } or { parallel: { weight, steps } }',
    );
  });

  it('rejects a heading without a block, an unclosed block, a skipped number and an empty file', () => {
    expect(errorOf('## 1. Analyze\n\nJust prose.\n\n## 2. Next\n```yaml\ncall: a\nweight: 1\n```').message).toBe(
      'WORKFLOW.md line 1: step 1 ("Analyze") has no fenced yaml block',
    );
    expect(errorOf('## 1. A\n```yaml\ncall: a\nweight: 1\n').message).toBe('WORKFLOW.md line 2: step 1 ("A"): the yaml block is never closed');
    expect(errorOf('## 1. A\n```yaml\ncall: a\nweight: 1\n```\n## 3. C\n```yaml\ncall: c\nweight: 1\n```\n').message).toBe(
      'WORKFLOW.md line 6: expected step number 2, found 3',
    );
    expect(errorOf('# Nothing here\n').message).toMatch(/^WORKFLOW\.md line 1: no steps found/);
    expect(errorOf('## 1. A\n```json\n{}\n```\n').message).toBe('WORKFLOW.md line 2: step 1 ("A"): expected a yaml block, found "json"');
  });
});
