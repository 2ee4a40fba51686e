import { describeIssues, toValidationIssues } from '@headway/protocol';
import { parseDocument } from 'yaml';
import { z } from 'zod';
import { EstimatorError } from './estimator-error.js';
import { computeStepRanges } from './step-ranges.js';

/** One worker call inside a workflow step. */
export interface WorkflowCall {
  /** The worker to call, e.g. `workers/generator`. */
  call: string;
  /** The slice this call's own 0–100 maps into (a parallel member shares its group's). */
  start: number;
  end: number;
}

/** A `## N. Title` step of a WORKFLOW.md with its slice of 10–90. */
export interface WorkflowStep {
  /** The `N` of the heading. */
  number: number;
  title: string;
  weight: number;
  start: number;
  end: number;
  /** True for a `parallel:` group, whose progress is the mean of its members'. */
  parallel: boolean;
  calls: WorkflowCall[];
  /** 1-based line of the heading in the markdown. */
  line: number;
}

interface CallBlock { call: string; weight: number }
interface ParallelBlock { parallel: { weight: number; steps: { call: string }[] } }

const positive = z.number({ error: 'expected a positive number' }).refine((n) => n > 0, { error: 'expected a positive number' });
const callName = z.string({ error: 'expected a worker name such as workers/x' }).min(1, { error: 'expected a worker name such as workers/x' });
const blockSchema: z.ZodType<CallBlock | ParallelBlock> = z.union(
  [
    z.strictObject({ call: callName, weight: positive }),
    z.strictObject({
      parallel: z.strictObject({
        weight: positive,
        steps: z.array(z.strictObject({ call: callName }), { error: 'expected a list of { call }' }).min(1, { error: 'expected at least one member' }),
      }),
    }),
  ],
  { error: 'expected either { call, weight } or { parallel: { weight, steps } }' },
);

const HEADING = /^##\s+(\d+)\.\s+(.+?)\s*#*\s*$/;
const FENCE = /^(`{3,}|~{3,})\s*(\S*)\s*$/;

function fail(line: number, message: string): never {
  throw new EstimatorError('ESTIMATOR_INVALID_WORKFLOW', `WORKFLOW.md line ${line}: ${message}`, [{ path: `line ${line}`, message }]);
}

/** Picks the best issue list for a block: the variant the author evidently meant. */
function blockIssues(value: unknown): string {
  const isObject = typeof value === 'object' && value !== null && !Array.isArray(value);
  const meantParallel = isObject && 'parallel' in value;
  const meantCall = isObject && ('call' in value || 'weight' in value);
  const schema = meantParallel ? (blockSchema as z.ZodUnion<[z.ZodType, z.ZodType]>).options[1] : meantCall ? (blockSchema as z.ZodUnion<[z.ZodType, z.ZodType]>).options[0] : undefined;
  if (schema === undefined) return 'expected either { call, weight } or { parallel: { weight, steps } }';
  const result = schema.safeParse(value);
  return result.success ? '' : describeIssues(toValidationIssues(result.error));
}

/**
 * Parses a manager's WORKFLOW.md — `## N. Title` headings each followed by a fenced yaml
 * block (`call: workers/x` + `weight: 60`, or `parallel: { weight, steps: [{ call }] }`) —
 * into steps laid out over 10–90 by weight.
 *
 * @throws {EstimatorError} `ESTIMATOR_INVALID_WORKFLOW` naming the line: a heading
 * without a yaml block, invalid yaml, or a block of the wrong shape.
 * @example
 * ```ts
 * const steps = parseWorkflow(await readFile('WORKFLOW.md', 'utf8'));
 * const generate = steps.find((s) => s.title === 'Generate Content'); // start 26, end 74
 * ```
 */
export function parseWorkflow(markdown: string): WorkflowStep[] {
  const lines = markdown.split(/\r?\n/);
  const found: { number: number; title: string; line: number; block: CallBlock | ParallelBlock }[] = [];
  let i = 0;
  while (i < lines.length) {
    const heading = HEADING.exec(lines[i] ?? '');
    if (heading === null) {
      i++;
      continue;
    }
    const headingLine = i + 1;
    const number = Number(heading[1]);
    const title = heading[2] ?? '';
    // The step's block is the first fence after the heading, before the next heading.
    let j = i + 1;
    let fence: RegExpExecArray | null = null;
    while (j < lines.length) {
      const text = lines[j] ?? '';
      if (/^#{1,2}\s/.test(text)) break;
      fence = FENCE.exec(text);
      if (fence !== null) break;
      j++;
    }
    if (fence === null) fail(headingLine, `step ${number} ("${title}") has no fenced yaml block`);
    const lang = fence[2] ?? '';
    if (lang !== '' && lang !== 'yaml' && lang !== 'yml') fail(j + 1, `step ${number} ("${title}"): expected a yaml block, found "${lang}"`);
    const marker = fence[1] ?? '```';
    const bodyStart = j + 1;
    let k = bodyStart;
    while (k < lines.length && !(lines[k] ?? '').trim().startsWith(marker.slice(0, 3)) ) k++;
    if (k >= lines.length) fail(j + 1, `step ${number} ("${title}"): the yaml block is never closed`);
    const body = lines.slice(bodyStart, k).join('\n');
    const doc = parseDocument(body, { prettyErrors: false, uniqueKeys: true });
    const yamlError = doc.errors[0];
    if (yamlError !== undefined) {
      const at = yamlError.linePos?.[0]?.line ?? 1;
      fail(bodyStart + at, `step ${number} ("${title}"): invalid yaml: ${yamlError.message.split('\n')[0] ?? ''}`);
    }
    const value: unknown = doc.toJS();
    const parsed = blockSchema.safeParse(value);
    if (!parsed.success) fail(bodyStart + 1, `step ${number} ("${title}"): ${blockIssues(value)}`);
    found.push({ number, title, line: headingLine, block: parsed.data });
    i = k + 1;
  }
  if (found.length === 0) fail(1, 'no steps found; expected "## N. Title" headings each followed by a yaml block');
  for (const [index, step] of found.entries()) {
    if (step.number !== index + 1) fail(step.line, `expected step number ${index + 1}, found ${step.number}`);
  }
  const weights = found.map((s) => ({ name: s.title, weight: 'parallel' in s.block ? s.block.parallel.weight : s.block.weight }));
  const ranges = computeStepRanges(weights);
  return found.map((step, index) => {
    const range = ranges[index];
    const start = range?.start ?? 10;
    const end = range?.end ?? 90;
    const calls = 'parallel' in step.block ? step.block.parallel.steps.map((m) => m.call) : [step.block.call];
    return {
      number: step.number,
      title: step.title,
      weight: weights[index]?.weight ?? 0,
      start,
      end,
      parallel: 'parallel' in step.block,
      calls: calls.map((call) => ({ call, start, end })),
      line: step.line,
    };
  });
}

/**
 * Overall percent of a parallel group (or a single call) from its members' own 0–100:
 * the mean of the members, mapped into the group's slice.
 */
export function workflowStepPercent(step: WorkflowStep, memberPercents: readonly number[]): number {
  const values = step.calls.map((_, i) => Math.min(100, Math.max(0, memberPercents[i] ?? 0)));
  const mean = values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
  return Math.round(step.start + (mean / 100) * (step.end - step.start));
}
