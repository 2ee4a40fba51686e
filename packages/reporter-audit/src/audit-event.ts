import {
  describeIssues,
  safeStringify,
  toValidationIssues,
  type LimitKind,
  type PlanItem,
  type ProgressReport,
  type StallKind,
} from '@headway/protocol';
import { z } from 'zod';
import { AuditError } from './audit-error.js';
import { AuditLogError } from './audit-log-error.js';

/**
 * One entry of an audit log. Every event an {@link AuditReporter} publishes has
 * `category: 'agent'` and `result: 'allow'` (progress is observed, never denied), and a
 * `detail` of plain JSON whose shape depends on `eventType` (see {@link AuditDetails}).
 */
export interface AuditEvent {
  /** e.g. `agent.progress.tool_start`; see {@link AUDIT_EVENT_TYPES}. */
  eventType: string;
  category: 'agent';
  result: 'allow';
  sessionId: string;
  taskId: string;
  /** Epoch milliseconds. */
  timestamp: number;
  detail: Record<string, unknown>;
  /**
   * Hash of the session's previous record (hex SHA-256, 64 zeros for the first),
   * set by the bus that stores the record: the hash chain `headway audit verify` checks.
   */
  prevHash?: string;
  /** Hash of this record (hex SHA-256 of its canonical JSON without `hash`), set by the bus that stores it. */
  hash?: string;
}

/** Present in a detail when the event came from `handle(event)`: which run, which `seq`. */
export interface AuditRunRef {
  runId?: string;
  seq?: number;
}

/**
 * The `detail` of each event type. The first seven are what the seven reporter methods
 * publish (values unchanged: `iteration` is zero-based); `handle(event)` publishes the
 * same types with more fields, and the rest.
 */
export interface AuditDetails {
  'agent.progress.start': AuditRunRef & { task: string; agentName?: string };
  'agent.progress.update': AuditRunRef & { pct: number; label: string; etaMs?: number; etaLowMs?: number; etaHighMs?: number };
  'agent.progress.tool_start': AuditRunRef & { tool: string; toolCallId?: string; args?: unknown };
  'agent.progress.tool_done': AuditRunRef & {
    tool: string;
    /** `ok` or `error` from the event stream; whatever the caller passed to `onToolDone`. */
    summary: string;
    ok?: boolean;
    durationMs?: number;
    toolCallId?: string;
    preview?: string;
  };
  'agent.progress.iteration': AuditRunRef & { iteration: number; max: number };
  'agent.progress.complete': AuditRunRef & { summary: string; outcome?: 'completed' | 'limit'; durationMs?: number; tokenCount?: number };
  'agent.progress.error': AuditRunRef & { error: string };
  'agent.progress.cancelled': AuditRunRef & { reason?: string };
  'agent.progress.step_start': AuditRunRef & { step: string; description?: string };
  'agent.progress.step_done': AuditRunRef & { step: string; durationMs: number };
  'agent.progress.thinking': AuditRunRef & { content: string };
  'agent.progress.text': AuditRunRef & { text: string };
  'agent.progress.intermediate_result': AuditRunRef & { content: string };
  'agent.progress.limit_approaching': AuditRunRef & { limit: LimitKind; used: number; max: number };
  'agent.progress.limit_reached': AuditRunRef & { limit: LimitKind; used: number; max: number };
  'agent.progress.wind_down': AuditRunRef & { reason: string; graceIterations: number };
  'agent.progress.timeout_extended': AuditRunRef & { byMs: number; totalBudgetMs: number };
  'agent.progress.checkpoint': AuditRunRef & { checkpointId: string; iteration: number };
  'agent.progress.report': AuditRunRef & { report: ProgressReport };
  'agent.progress.tool_flagged': AuditRunRef & { tool: string; toolCallId?: string; findings: string[] };
  'agent.progress.strategy_rotated': AuditRunRef & { tool: string; failures: number };
  'agent.progress.plan': AuditRunRef & { items: PlanItem[] };
  'agent.progress.stall_detected': AuditRunRef & {
    kind: StallKind;
    since: number;
    subject: string;
    repeats: number;
    toolCallIds: string[];
  };
  'agent.progress.stall_cleared': AuditRunRef & { kind: StallKind; since: number };
}

/** An `eventType` an {@link AuditReporter} publishes. */
export type AuditEventType = keyof AuditDetails;

/** Every {@link AuditEventType}: the seven reporter methods' first, in a stable order. */
export const AUDIT_EVENT_TYPES: readonly AuditEventType[] = [
  'agent.progress.start',
  'agent.progress.update',
  'agent.progress.tool_start',
  'agent.progress.tool_done',
  'agent.progress.iteration',
  'agent.progress.complete',
  'agent.progress.error',
  'agent.progress.cancelled',
  'agent.progress.step_start',
  'agent.progress.step_done',
  'agent.progress.thinking',
  'agent.progress.text',
  'agent.progress.intermediate_result',
  'agent.progress.limit_approaching',
  'agent.progress.limit_reached',
  'agent.progress.wind_down',
  'agent.progress.timeout_extended',
  'agent.progress.checkpoint',
  'agent.progress.report',
  'agent.progress.tool_flagged',
  'agent.progress.strategy_rotated',
  'agent.progress.plan',
  'agent.progress.stall_detected',
  'agent.progress.stall_cleared',
];

const auditEventShape = z.object({
  eventType: z.string().min(1),
  category: z.literal('agent'),
  result: z.literal('allow'),
  sessionId: z.string(),
  taskId: z.string(),
  timestamp: z.number().nonnegative(),
  detail: z.record(z.string(), z.unknown()),
  prevHash: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .exactOptional(),
  hash: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .exactOptional(),
});

/**
 * zod schema of {@link AuditEvent}, for validating events read back from storage. The
 * `eventType` may be any non-empty string, so logs written by newer versions still read.
 */
export const auditEventSchema: z.ZodType<AuditEvent> = auditEventShape;

// Events an AuditReporter built: valid by construction, plain JSON, frozen at the top level
// so nobody can swap a field afterwards. Buses skip re-validating them.
const built = new WeakSet<object>();

/** Freezes an event the reporter built and marks it valid for the buses. */
export function sealBuiltEvent(event: AuditEvent): AuditEvent {
  built.add(Object.freeze(event));
  return event;
}

/** Validates an event a bus is asked to store; throws `AUDIT_INVALID_EVENT` naming each bad path. */
export function assertAuditEvent(event: unknown): AuditEvent {
  if (typeof event === 'object' && event !== null && built.has(event)) return event as AuditEvent;
  let result;
  try {
    result = auditEventSchema.safeParse(event);
  } catch (cause) {
    throw new AuditError('AUDIT_INVALID_EVENT', 'Invalid audit event: input could not be read', { cause });
  }
  if (result.success) return result.data;
  const issues = toValidationIssues(result.error);
  throw new AuditError('AUDIT_INVALID_EVENT', `Invalid audit event: ${describeIssues(issues)}`, { issues });
}

/**
 * Validates a record read back from a log or a table as an audit event; `location` (`file#id`,
 * `host:port/db#id`) names it in the error.
 *
 * @throws {AuditLogError} `AUDIT_INVALID_ROW` naming `location` and each bad path.
 */
export function decodeAuditRecord(value: unknown, location: string): AuditEvent {
  const result = safeParseStoredRecord(value);
  if (result.success) return result.data;
  const issues = toValidationIssues(result.error);
  throw new AuditLogError('AUDIT_INVALID_ROW', `${location}: not an audit event: ${describeIssues(issues)}`, { location, issues });
}

// Records read back from storage, as they were stored (every key, `__proto__` members included),
// by the validated event made from them: the chain's hash covers what is stored, not what the
// schema keeps, so a key added to a stored record breaks its hash.
const storedForms = new WeakMap<object, unknown>();

/**
 * Validates a record read back from storage (`auditEventSchema.safeParse`) and, when it is one,
 * remembers the stored value beside the event, for {@link storedFormOf}.
 */
export function safeParseStoredRecord(value: unknown): ReturnType<typeof auditEventSchema.safeParse> {
  const result = auditEventSchema.safeParse(value);
  if (result.success) storedForms.set(result.data, value);
  return result;
}

/** The record as it was stored, when `event` was read back by {@link decodeAuditRecord}; else `event` itself. */
export function storedFormOf(event: AuditEvent): unknown {
  return storedForms.get(event) ?? event;
}

/** JSON text of an object: the fast native path, or `safeStringify` for cycles and bigints. */
export function toJson(value: object): string {
  let text: unknown;
  try {
    text = JSON.stringify(value);
  } catch {
    text = safeStringify(value);
  }
  // A toJSON() that returns undefined gives no text at all.
  return typeof text === 'string' ? text : 'null';
}
