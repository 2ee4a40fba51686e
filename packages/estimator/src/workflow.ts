import { describeIssues, toValidationIssues } from '@headway/protocol';
import { errorMessage } from '@headway/protocol/internal';
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

interface CallBlock {
  call: string;
  weight: number;
}
interface ParallelBlock {
  parallel: { weight: number; steps: { call: string }[] };
}

const positive = z.number({ error: 'expected a positive number' }).refine((n) => n > 0, { error: 'expected a positive number' });
const callName = z
  .string({ error: 'expected a worker name such as workers/x' })
  .min(1, { error: 'expected a worker name such as workers/x' });
const blockSchema: z.ZodType<CallBlock | ParallelBlock> = z.union(
  [
    z.strictObject({ call: callName, weight: positive }),
    z.strictObject({
      parallel: z.strictObject({
        weight: positive,
        steps: z
          .array(z.strictObject({ call: callName }), { error: 'expected a list of { call }' })
          .min(1, { error: 'expected at least one member' }),
      }),
    }),
  ],
  { error: 'expected either { call, weight } or { parallel: { weight, steps } }' },
);

/** Longest WORKFLOW.md {@link parseWorkflow} reads: 1 MiB of text (1,048,576 characters). */
export const MAX_WORKFLOW_LENGTH = 1_048_576;
/** Longest yaml block of one step: 16,384 characters (a real block is a few lines). */
export const MAX_WORKFLOW_BLOCK = 16_384;
/** Deepest nesting a step's yaml block may have (a real block nests 3 deep). */
export const MAX_WORKFLOW_DEPTH = 32;
/** Aliases a yaml block may expand (a real block needs none): stops a billion-laughs document. */
const MAX_ALIAS_COUNT = 16;
/** Characters of a title or yaml message quoted in an error. */
const MAX_QUOTED = 80;

// Only the fixed prefix is a pattern: the title is cut by hand, since a lazy title followed by
// optional spaces and hashes backtracks polynomially on a heading full of spaces.
const HEADING_PREFIX = /^##\s+(\d+)\.\s/;
const NEXT_HEADING = /^#{1,2}\s/;

function quoted(text: string): string {
  return text.length > MAX_QUOTED ? `${text.slice(0, MAX_QUOTED)}…` : text;
}

/** `## N. Title ##` → number and title (closing hashes and spaces dropped); linear in the line. */
function readHeading(line: string): { number: number; title: string } | undefined {
  const prefix = HEADING_PREFIX.exec(line);
  if (prefix === null) return undefined;
  const rest = line.slice(prefix[0].length).trim();
  let end = rest.length;
  while (end > 0 && rest[end - 1] === '#') end--;
  const title = end === 0 ? rest : rest.slice(0, end).trimEnd();
  if (title === '') return undefined;
  return { number: Number(prefix[1]), title };
}

/** A fence line (three or more backticks or tildes, then an optional one-word language). */
function readFence(line: string): { marker: string; lang: string } | undefined {
  const ch = line[0];
  if (ch !== '`' && ch !== '~') return undefined;
  let i = 0;
  while (line[i] === ch) i++;
  if (i < 3) return undefined;
  const lang = line.slice(i).trim();
  if (/\s/.test(lang)) return undefined;
  return { marker: line.slice(0, i), lang };
}

/**
 * An upper bound on how deeply a yaml text nests, read without parsing it: flow brackets
 * outside quotes, plus indentation levels, plus `- ` and `? ` indicators that open a node on
 * the same line. The yaml parser recurses per level, so a deep text must be refused before
 * it is parsed (10 KB of `[` aborts the process).
 */
function nestingBound(yaml: string): number {
  let deepest = 0;
  let flow = 0;
  let quote = '';
  const indents: number[] = [];
  for (const line of yaml.split('\n')) {
    let i = 0;
    while (line[i] === ' ') i++;
    if (flow === 0 && quote === '' && i < line.length && line[i] !== '#') {
      while (indents.length > 0 && (indents[indents.length - 1] ?? 0) >= i) indents.pop();
      indents.push(i);
    }
    let inline = 0;
    while ((line[i] === '-' || line[i] === '?' || line[i] === ':') && (line[i + 1] === ' ' || line[i + 1] === undefined)) {
      inline++;
      i += 2;
      while (line[i] === ' ') i++;
    }
    deepest = Math.max(deepest, indents.length + inline + flow);
    for (; i < line.length; i++) {
      const c = line[i];
      if (quote !== '') {
        if (c === quote) quote = '';
      } else if (c === '"' || c === "'") quote = c;
      else if (c === '#' && (i === 0 || line[i - 1] === ' ')) break;
      else if (c === '[' || c === '{') {
        flow++;
        deepest = Math.max(deepest, indents.length + inline + flow);
      } else if ((c === ']' || c === '}') && flow > 0) flow--;
    }
  }
  return deepest;
}

function fail(line: number, message: string, cause?: unknown): never {
  throw new EstimatorError('ESTIMATOR_INVALID_WORKFLOW', `WORKFLOW.md line ${line}: ${message}`, {
    ...(cause === undefined ? undefined : { cause }),
    issues: [{ path: `line ${line}`, message }],
  });
}

/** Parses one step's yaml block with the yaml package's own limits; every failure names its line. */
function readBlock(body: string, bodyStart: number, step: string): unknown {
  if (body.length > MAX_WORKFLOW_BLOCK)
    fail(bodyStart + 1, `${step}: the yaml block is ${body.length} characters; the limit is ${MAX_WORKFLOW_BLOCK}`);
  const depth = nestingBound(body);
  if (depth > MAX_WORKFLOW_DEPTH)
    fail(bodyStart + 1, `${step}: the yaml block nests ${depth} levels deep; the limit is ${MAX_WORKFLOW_DEPTH}`);
  let doc: ReturnType<typeof parseDocument>;
  try {
    doc = parseDocument(body, { prettyErrors: false, uniqueKeys: true, merge: false });
  } catch (cause) {
    fail(bodyStart + 1, `${step}: invalid yaml: ${quoted(errorMessage(cause))}`, cause);
  }
  const yamlError = doc.errors[0];
  if (yamlError !== undefined) {
    const at = yamlError.linePos?.[0]?.line ?? 1;
    fail(bodyStart + at, `${step}: invalid yaml: ${quoted(yamlError.message.split('\n')[0] ?? '')}`);
  }
  try {
    return doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (cause) {
    // The yaml package throws a ReferenceError for too many aliases ("resource exhaustion").
    fail(bodyStart + 1, `${step}: invalid yaml: ${quoted(errorMessage(cause))} (at most ${MAX_ALIAS_COUNT} aliases)`, cause);
  }
}

/** Picks the best issue list for a block: the variant the author evidently meant. */
function blockIssues(value: unknown): string {
  const isObject = typeof value === 'object' && value !== null && !Array.isArray(value);
  const meantParallel = isObject && 'parallel' in value;
  const meantCall = isObject && ('call' in value || 'weight' in value);
  const schema = meantParallel
    ? (blockSchema as z.ZodUnion<[z.ZodType, z.ZodType]>).options[1]
    : meantCall
      ? (blockSchema as z.ZodUnion<[z.ZodType, z.ZodType]>).options[0]
      : undefined;
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
  // Callers from plain JavaScript can pass anything.
  const given: unknown = markdown;
  if (typeof given !== 'string') fail(1, `expected the text of a WORKFLOW.md, got ${given === null ? 'null' : typeof given}`);
  if (markdown.length > MAX_WORKFLOW_LENGTH) fail(1, `the file is ${markdown.length} characters; the limit is ${MAX_WORKFLOW_LENGTH}`);
  const lines = markdown.split(/\r?\n/);
  const found: { number: number; title: string; line: number; block: CallBlock | ParallelBlock }[] = [];
  let i = 0;
  while (i < lines.length) {
    const heading = readHeading(lines[i] ?? '');
    if (heading === undefined) {
      i++;
      continue;
    }
    const headingLine = i + 1;
    const { number, title } = heading;
    const step = `step ${number} ("${quoted(title)}")`;
    // The step's block is the first fence after the heading, before the next heading.
    let j = i + 1;
    let fence: { marker: string; lang: string } | undefined;
    while (j < lines.length) {
      const text = lines[j] ?? '';
      if (NEXT_HEADING.test(text)) break;
      fence = readFence(text);
      if (fence !== undefined) break;
      j++;
    }
    if (fence === undefined) fail(headingLine, `${step} has no fenced yaml block`);
    const { lang, marker } = fence;
    if (lang !== '' && lang !== 'yaml' && lang !== 'yml') fail(j + 1, `${step}: expected a yaml block, found "${quoted(lang)}"`);
    const bodyStart = j + 1;
    let k = bodyStart;
    while (k < lines.length && !(lines[k] ?? '').trim().startsWith(marker.slice(0, 3))) k++;
    if (k >= lines.length) fail(j + 1, `${step}: the yaml block is never closed`);
    const value = readBlock(lines.slice(bodyStart, k).join('\n'), bodyStart, step);
    const parsed = blockSchema.safeParse(value);
    if (!parsed.success) fail(bodyStart + 1, `${step}: ${blockIssues(value)}`);
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
