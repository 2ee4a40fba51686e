// Worst known inputs for every parser of @headway/estimator (issue: hostile input must never hang).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ProgressTextFilter,
  ProgressTracker,
  extractModelProgress,
  loadProgressConfig,
  parseWorkflow,
  stripModelProgress,
} from '@headway/estimator';
import type { AdversarialCase } from '../case.js';

const fill = (unit: string, n: number): string => unit.repeat(Math.max(1, Math.ceil(n / unit.length))).slice(0, n);
const BLOCK = '```yaml\ncall: workers/x\nweight: 5\n```\n';
const dir = mkdtempSync(join(tmpdir(), 'headway-adversarial-'));

function streamed(text: string): number {
  const filter = new ProgressTextFilter();
  let shown = 0;
  for (let at = 0; at < text.length; at += 20) shown += filter.push(text.slice(at, at + 20)).length;
  return shown + filter.flush().length;
}

export const cases: AdversarialCase[] = [
  {
    // A reply cut off by max_tokens, many times over: hung forever before.
    name: 'estimator: extractModelProgress — cut-off _progress objects',
    make: (n) => fill('{"_progress": {"percent": 50}', n),
    run: (input) => extractModelProgress(input),
  },
  {
    name: 'estimator: extractModelProgress — unclosed braces, then a key',
    make: (n) => `${fill('{', n - 12)}"_progress"`,
    run: (input) => extractModelProgress(input),
  },
  {
    // Nested objects that each carry the key: every span is a candidate.
    name: 'estimator: extractModelProgress — nested keyed objects',
    make: (n) => {
      const depth = Math.floor(n / 16);
      return `x ${'{"_progress": '.repeat(depth)}1${'}'.repeat(depth)}`;
    },
    run: (input) => extractModelProgress(input),
  },
  {
    name: 'estimator: stripModelProgress — cut-off objects and fences',
    make: (n) => fill('{"_progress": {"percent": 50} ```json\n', n),
    run: (input) => stripModelProgress(input as string),
  },
  {
    name: 'estimator: stripModelProgress — spaces before a line end',
    make: (n) => `_progress${fill(' ', n - 10)}x`,
    run: (input) => stripModelProgress(input as string),
  },
  {
    // One unclosed { early, then text that may still be JSON: held back entirely before.
    name: 'estimator: ProgressTextFilter — unclosed { then JSON-like text, 20-char deltas',
    make: (n) => `Data: {"values": [${fill('1, ', n - 20)}`,
    run: (input) => streamed(input as string),
  },
  {
    name: 'estimator: ProgressTextFilter — unclosed { then prose, 20-char deltas',
    make: (n) => `Start { unclosed ${fill('lorem ipsum dolor sit amet ', n - 17)}`,
    run: (input) => streamed(input as string),
  },
  {
    name: 'estimator: parseWorkflow — heading full of spaces',
    make: (n) => `## 1. a${fill(' ', n - 40)}b\n${BLOCK}`,
    run: (input) => parseWorkflow(input as string),
  },
  {
    name: 'estimator: parseWorkflow — many steps',
    make: (n) => Array.from({ length: Math.ceil(n / 56) }, (_, i) => `## ${i + 1}. Step\n${BLOCK}`).join(''),
    run: (input) => parseWorkflow(input as string),
  },
  {
    // Aborted the process ("RegExpCompiler Allocation failed") before; now refused by the caps.
    name: 'estimator: parseWorkflow — nested [[[…]]] yaml',
    make: (n) => `## 1. Deep\n\`\`\`yaml\n${fill('[', n / 2)}${fill(']', n / 2)}\n\`\`\`\n`,
    run: (input) => parseWorkflow(input as string),
  },
  {
    name: 'estimator: loadProgressConfig — BOM and a long list of bad steps',
    make: (n) => {
      const path = join(dir, `agent-${n}.json`);
      const steps = fill('{"name":"","weight":-1},', n - 60);
      writeFileSync(path, `\uFEFF{"progress":{"fallbackSteps":[${steps.slice(0, steps.lastIndexOf('},') + 1)}]}}`);
      return path;
    },
    run: (input) => loadProgressConfig(input as string),
  },
  {
    // Past MAX_STATE_STEPS the list is refused before validation.
    name: 'estimator: ProgressTracker restore — a state with many bad entries',
    make: (n) => ({
      ...new ProgressTracker({ maxIterations: 5 }).toJSON(),
      message: 7,
      finishedSteps: Array.from({ length: Math.floor(n / 2) }, () => 7),
    }),
    run: (input) => new ProgressTracker({ maxIterations: 5, state: input }),
  },
];
