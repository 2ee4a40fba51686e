// A zod-free check of a ProgressEvent for browser bundles. It accepts exactly what
// `progressEventSchema` accepts and returns the same value (unknown keys dropped); the fast-check
// test in validate-lite.test.ts holds the two together over `@headway/protocol/testing`'s
// generators and hostile values, so `progressEventSchema` stays the one source of truth.
import type { ProgressEvent, TerminalEvent } from './events.js';
// Type-free constants only: importing them keeps this module zod-free once bundled.
import { MAX_PLAN_ITEM_ID, MAX_PLAN_ITEM_TEXT, MAX_PLAN_ITEMS } from './plan-limits.js';
import type { ValidationIssue } from './headway-error.js';
import { ProtocolError } from './protocol-error.js';

export { ProtocolError } from './protocol-error.js';
export { HeadwayError } from './headway-error.js';

/** A field rule: its kind and whether it may be absent (never `undefined` when present). */
type Rule = readonly [kind: Kind, optional?: 'optional'];
type Kind =
  | 'string'
  | 'nonEmpty'
  | 'number'
  | 'nonNegative'
  | 'count'
  | 'positiveInt'
  | 'percent'
  | 'boolean'
  | 'unknown'
  | 'strings'
  | 'stallIds'
  | 'planItems'
  | readonly string[]
  | Shape;
type Shape = Readonly<Record<string, Rule>>;

const S: Rule = ['string'];
const OS: Rule = ['string', 'optional'];
const DURATION: Rule = ['nonNegative'];
const COUNT: Rule = ['count'];
const LIMIT: Rule = [['iterations', 'time', 'cost']];
const STALL: Rule = [['repeated-call', 'repeated-failure', 'ping-pong', 'no-progress', 'repeated-text']];
/** `MAX_STALL_EVIDENCE_IDS` of events.ts, repeated here to keep this module zod-free. */
const MAX_STALL_IDS = 50;

const REPORT: Shape = {
  task: S,
  reason: [['max-iterations', 'time-budget', 'negotiated-timeout', 'cost-budget', 'cancelled', 'error', 'stalled']],
  completedWork: ['strings'],
  keyFindings: ['strings'],
  attemptedInconclusive: ['strings'],
  remaining: ['strings'],
  suggestedNextSteps: ['strings'],
  stats: [{ iterations: COUNT, toolCalls: COUNT, elapsedMs: DURATION, costUsd: ['nonNegative', 'optional'] }],
  generatedBy: [['model', 'fallback']],
};

const ENVELOPE: Shape = { type: S, runId: ['nonEmpty'], seq: ['positiveInt'], ts: ['nonNegative'] };

const BODIES: Readonly<Record<ProgressEvent['type'], Shape>> = {
  'run.started': {
    agentName: S,
    task: OS,
    sessionId: OS,
    limits: [{ iterations: ['nonNegative', 'optional'], time: ['nonNegative', 'optional'], cost: ['nonNegative', 'optional'] }, 'optional'],
    parentRunId: ['nonEmpty', 'optional'],
  },
  'step.started': { step: S, description: OS, provider: OS, model: OS },
  'step.finished': {
    step: S,
    durationMs: DURATION,
    usage: [{ inputTokens: COUNT, outputTokens: COUNT }, 'optional'],
    finishReason: OS,
    costUsd: ['nonNegative', 'optional'],
  },
  thinking: { content: S },
  'tool.executing': { toolName: S, toolCallId: OS, args: ['unknown', 'optional'] },
  'tool.completed': { toolName: S, toolCallId: OS, durationMs: DURATION, ok: ['boolean'], preview: OS },
  'text.delta': { text: S },
  progress: {
    percent: ['percent'],
    message: OS,
    etaMs: ['nonNegative', 'optional'],
    etaLowMs: ['nonNegative', 'optional'],
    etaHighMs: ['nonNegative', 'optional'],
    guess: ['boolean', 'optional'],
    plan: ['positiveInt', 'optional'],
  },
  'intermediate.result': { content: S },
  'run.finished': {
    durationMs: DURATION,
    tokenCount: ['count', 'optional'],
    outcome: [['completed', 'limit']],
    summary: OS,
    stopReason: [['max-iterations', 'time-budget', 'negotiated-timeout', 'cost-budget', 'cancelled', 'error', 'stalled'], 'optional'],
  },
  'run.error': { error: S },
  'run.cancelled': { reason: OS },
  iteration: { index: COUNT, max: ['positiveInt'] },
  'limit.approaching': { limit: LIMIT, used: ['nonNegative'], max: ['nonNegative'] },
  'limit.reached': { limit: LIMIT, used: ['nonNegative'], max: ['nonNegative'] },
  'wind-down.started': { reason: S, graceIterations: COUNT },
  'timeout.extended': { byMs: DURATION, totalBudgetMs: DURATION },
  'checkpoint.saved': { checkpointId: ['nonEmpty'], iteration: COUNT },
  'report.generated': { report: [REPORT] },
  'tool.flagged': { toolName: S, toolCallId: OS, findings: ['strings'] },
  'strategy.rotated': { toolName: S, failures: ['positiveInt'] },
  'plan.updated': { items: ['planItems'] },
  'stall.detected': { kind: STALL, evidence: [{ toolCallIds: ['stallIds'], subject: S, repeats: ['positiveInt'] }], since: COUNT },
  'stall.cleared': { kind: STALL, since: COUNT },
};

const PLAN_STATUSES: readonly string[] = ['pending', 'in_progress', 'completed'];

/** Checks a plan's items as `planItemsSchema` does; returns the items with unknown keys dropped. */
function checkPlanItems(value: unknown, at: string, issues: ValidationIssue[]): unknown[] | undefined {
  if (!Array.isArray(value)) {
    issues.push({ path: at, message: `invalid input: expected array, received ${kindOf(value)}` });
    return undefined;
  }
  const items = value as unknown[];
  if (items.length < 1) issues.push({ path: at, message: 'expected at least 1 item' });
  if (items.length > MAX_PLAN_ITEMS) {
    issues.push({ path: at, message: `expected at most ${MAX_PLAN_ITEMS} items` });
    return undefined;
  }
  const out: unknown[] = [];
  const seen = new Map<string, number>();
  const before = issues.length;
  for (let i = 0; i < items.length && issues.length < MAX_ISSUES; i++) {
    const item = items[i];
    const here = `${at}.${i}`;
    if (!isRecord(item)) {
      issues.push({ path: here, message: `invalid input: expected object, received ${kindOf(item)}` });
      continue;
    }
    const kept: Record<string, unknown> = {};
    if (Object.hasOwn(item, 'id')) {
      const id = item.id;
      if (typeof id !== 'string') issues.push({ path: `${here}.id`, message: `invalid input: expected string, received ${kindOf(id)}` });
      else if (id.length < 1 || id.length > MAX_PLAN_ITEM_ID)
        issues.push({ path: `${here}.id`, message: `expected 1 to ${MAX_PLAN_ITEM_ID} characters` });
      else kept.id = id;
    }
    const text = item.text;
    if (typeof text !== 'string')
      issues.push({ path: `${here}.text`, message: `invalid input: expected string, received ${kindOf(text)}` });
    else if (text.length < 1 || text.length > MAX_PLAN_ITEM_TEXT)
      issues.push({ path: `${here}.text`, message: `expected 1 to ${MAX_PLAN_ITEM_TEXT} characters` });
    else kept.text = text;
    const status = item.status;
    if (typeof status !== 'string' || !PLAN_STATUSES.includes(status)) {
      issues.push({ path: `${here}.status`, message: 'expected one of "pending"|"in_progress"|"completed"' });
    } else kept.status = status;
    out.push(kept);
  }
  if (issues.length > before) return undefined;
  for (let i = 0; i < out.length; i++) {
    const id = (out[i] as { id?: string }).id;
    if (id === undefined) continue;
    const first = seen.get(id);
    if (first !== undefined) issues.push({ path: `${at}.${i}.id`, message: `duplicate id (first at item ${first})` });
    else seen.set(id, i);
  }
  return out;
}

/** Most issues one check collects before it stops looking. */
const MAX_ISSUES = 10;

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'array' : typeof value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function finite(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/** The problem with `value` for `kind`, or `undefined` when it fits. */
function checkScalar(kind: Exclude<Kind, Shape | 'planItems'>, value: unknown): string | undefined {
  switch (kind) {
    case 'unknown':
      return undefined;
    case 'string':
      return typeof value === 'string' ? undefined : `invalid input: expected string, received ${kindOf(value)}`;
    case 'nonEmpty':
      return typeof value !== 'string'
        ? `invalid input: expected string, received ${kindOf(value)}`
        : value === ''
          ? 'expected a non-empty string'
          : undefined;
    case 'boolean':
      return typeof value === 'boolean' ? undefined : `invalid input: expected boolean, received ${kindOf(value)}`;
    case 'number':
    case 'nonNegative':
    case 'count':
    case 'positiveInt':
    case 'percent': {
      if (!finite(value)) return `invalid input: expected number, received ${kindOf(value)}`;
      if ((kind === 'count' || kind === 'positiveInt') && !Number.isInteger(value)) return 'expected an integer';
      if (kind === 'positiveInt' && value <= 0) return 'expected a number > 0';
      if ((kind === 'nonNegative' || kind === 'count' || kind === 'percent') && value < 0) return 'expected a number >= 0';
      if (kind === 'percent' && value > 100) return 'expected a number <= 100';
      return undefined;
    }
    case 'strings':
    case 'stallIds':
      return undefined; // checked item by item by the caller
    default:
      return typeof value === 'string' && kind.includes(value)
        ? undefined
        : `expected one of ${kind.map((k) => JSON.stringify(k)).join('|')}`;
  }
}

function checkShape(shape: Shape, input: Record<string, unknown>, path: string, issues: ValidationIssue[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, [kind, optional]] of Object.entries(shape)) {
    if (issues.length >= MAX_ISSUES) break;
    const at = path === '' ? key : `${path}.${key}`;
    if (!Object.hasOwn(input, key)) {
      if (optional === undefined) {
        // `args` (unknown) accepts an absent key as zod's z.unknown() does.
        if (kind !== 'unknown') issues.push({ path: at, message: 'required' });
      }
      continue;
    }
    const value = input[key];
    if (value === undefined && kind !== 'unknown') {
      issues.push({
        path: at,
        message: optional === undefined ? 'required' : 'expected a value (an optional key must be absent, not undefined)',
      });
      continue;
    }
    if (typeof kind === 'object' && !Array.isArray(kind)) {
      if (!isRecord(value)) {
        issues.push({ path: at, message: `invalid input: expected object, received ${kindOf(value)}` });
        continue;
      }
      out[key] = checkShape(kind as Shape, value, at, issues);
      continue;
    }
    if (kind === 'planItems') {
      const items = checkPlanItems(value, at, issues);
      if (items !== undefined) out[key] = items;
      continue;
    }
    if (kind === 'strings' || kind === 'stallIds') {
      if (!Array.isArray(value)) {
        issues.push({ path: at, message: `invalid input: expected array, received ${kindOf(value)}` });
        continue;
      }
      const items = value as unknown[];
      if (kind === 'stallIds' && items.length > MAX_STALL_IDS) {
        issues.push({ path: at, message: `expected at most ${MAX_STALL_IDS} items` });
        continue;
      }
      for (let i = 0; i < items.length && issues.length < MAX_ISSUES; i++) {
        if (typeof items[i] !== 'string')
          issues.push({ path: `${at}.${i}`, message: `invalid input: expected string, received ${kindOf(items[i])}` });
      }
      out[key] = items.slice();
      continue;
    }
    const problem = checkScalar(kind as Exclude<Kind, Shape | 'planItems'>, value);
    if (problem === undefined) out[key] = value;
    else issues.push({ path: at, message: problem });
  }
  return out;
}

/** What {@link checkProgressEventLite} answers. */
export type LiteCheckResult = { success: true; data: ProgressEvent } | { success: false; issues: ValidationIssue[] };

/**
 * Checks a value against the progress event shape without zod: the same verdict and the same
 * value (unknown keys dropped) as `progressEventSchema.safeParse`, for browser bundles that
 * must stay small (`@headway/sse/client` in a browser). Messages are shorter than zod's.
 * Never throws: a throwing getter or a revoked proxy is a failure with an issue at the root.
 *
 * @example
 * ```ts
 * const checked = checkProgressEventLite(JSON.parse(data));
 * if (checked.success) render(checked.data);
 * ```
 */
export function checkProgressEventLite(input: unknown): LiteCheckResult {
  try {
    if (!isRecord(input)) return { success: false, issues: [{ path: '', message: `expected object, received ${kindOf(input)}` }] };
    const type = input.type;
    const body = typeof type === 'string' && Object.hasOwn(BODIES, type) ? BODIES[type as ProgressEvent['type']] : undefined;
    if (body === undefined) return { success: false, issues: [{ path: 'type', message: 'unknown event type' }] };
    const issues: ValidationIssue[] = [];
    const out = checkShape({ ...ENVELOPE, ...body }, input, '', issues);
    return issues.length === 0 ? { success: true, data: out as unknown as ProgressEvent } : { success: false, issues };
  } catch {
    return { success: false, issues: [{ path: '', message: 'input could not be read' }] };
  }
}

/** `parseProgressEventJson`'s default length cap, repeated here to keep this module zod-free. */
const MAX_JSON_LENGTH = 4 * 1024 * 1024;

/**
 * Parses and checks one event's JSON text without zod (see {@link checkProgressEventLite}).
 *
 * @throws {ProtocolError} `PROTOCOL_INPUT_TOO_LARGE` over `maxLength` (default 4 MiB
 * characters), `PROTOCOL_INVALID_EVENT` for text that is not JSON or not an event, naming the path.
 */
export function parseProgressEventJsonLite(text: string, options: { maxLength?: number } = {}): ProgressEvent {
  const maxLength = options.maxLength ?? MAX_JSON_LENGTH;
  if (typeof text !== 'string')
    throw new ProtocolError('PROTOCOL_INVALID_EVENT', `Invalid progress event: expected JSON text, got ${kindOf(text)}`);
  if (text.length > maxLength) {
    throw new ProtocolError(
      'PROTOCOL_INPUT_TOO_LARGE',
      `Progress event JSON is ${text.length} characters, over the limit of ${maxLength} (maxLength); not parsed`,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw new ProtocolError('PROTOCOL_INVALID_EVENT', 'Invalid progress event: not JSON', {
      issues: [{ path: '', message: 'not JSON' }],
      cause,
    });
  }
  const checked = checkProgressEventLite(value);
  if (checked.success) return checked.data;
  const shown = checked.issues.map((i) => `${i.path === '' ? '(root)' : i.path}: ${i.message}`).join('; ');
  const type =
    isRecord(value) && typeof value.type === 'string'
      ? ` (type ${JSON.stringify(value.type.length > 60 ? `${value.type.slice(0, 60)}…` : value.type)})`
      : '';
  throw new ProtocolError('PROTOCOL_INVALID_EVENT', `Invalid progress event${type}: ${shown}`, { issues: checked.issues });
}

/** True for `run.finished`, `run.error` and `run.cancelled` (as `isTerminalEvent`, zod-free). */
export function isTerminalEventLite(event: { readonly type: string }): event is TerminalEvent {
  return event.type === 'run.finished' || event.type === 'run.error' || event.type === 'run.cancelled';
}
