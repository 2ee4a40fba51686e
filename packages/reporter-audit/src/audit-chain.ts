import { createHash } from 'node:crypto';
import { storedFormOf, type AuditEvent } from './audit-event.js';

/** `prevHash` of the first record of a session: 64 zeros (there is no record before it). */
export const AUDIT_GENESIS_HASH: string = '0'.repeat(64);

/**
 * Canonical JSON text of a plain JSON value (RFC 8785 for values that came out of `JSON.parse`):
 * object keys sorted by UTF-16 code units, no whitespace, numbers and strings as `JSON.stringify`
 * writes them, `undefined` members left out. Two equal values give the same text whatever their
 * key order, so a hash over it survives a round trip through JSON text or a SQLite row.
 *
 * A dozen lines instead of the `canonicalize` package: its current versions need Node 22.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    const text = JSON.stringify(value) as string | undefined;
    return text ?? 'null';
  }
  if (Array.isArray(value)) return `[${value.map((v: unknown) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  const record = value as Record<string, unknown>;
  const parts: string[] = [];
  for (const key of Object.keys(record).sort()) {
    const member = record[key];
    if (member === undefined) continue;
    parts.push(`${JSON.stringify(key)}:${canonicalJson(member)}`);
  }
  return `{${parts.join(',')}}`;
}

/**
 * The hash of one audit record: hex SHA-256 of the canonical JSON of the record without its own
 * `hash` field (its `prevHash` included, which is what chains it to the one before). A record read
 * back from storage is hashed as it was stored, every key included (a key the schema does not know,
 * a `__proto__` member): adding anything to a stored record breaks its hash.
 */
export function auditRecordHash(record: AuditEvent): string {
  const stored = storedFormOf(record);
  const { hash: _own, ...rest } = (typeof stored === 'object' && stored !== null ? stored : record) as Record<string, unknown>;
  return createHash('sha256').update(canonicalJson(rest)).digest('hex');
}

/** {@link auditRecordHash}, or undefined for a record too deeply nested to hash. */
function hashOrUndefined(record: AuditEvent): string | undefined {
  try {
    return auditRecordHash(record);
  } catch {
    // RangeError: nested deeper than the stack; no writer could have hashed it either.
    return undefined;
  }
}

/**
 * The write side of the hash chain: remembers the last hash of each session and stamps the next
 * record with it. Each bus keeps one (a JSONL or SQLite bus seeds it from what is already stored).
 */
export class AuditChain {
  readonly #last = new Map<string, string>();

  /** Records that the newest stored record of `sessionId` has hash `hash`. */
  seed(sessionId: string, hash: string): void {
    this.#last.set(sessionId, hash);
  }

  /**
   * The record as stored: the event as plain JSON (what reads back from a file or row), with
   * `prevHash` (the session's previous record's hash, or {@link AUDIT_GENESIS_HASH}) and its own `hash`.
   * Call {@link AuditChain.commit} once it is stored.
   */
  link(event: AuditEvent, json: string): AuditEvent {
    const plain = JSON.parse(json) as AuditEvent;
    const { hash: _h, prevHash: _p, ...rest } = plain;
    const linked: AuditEvent = { ...rest, prevHash: this.#last.get(event.sessionId) ?? AUDIT_GENESIS_HASH };
    linked.hash = auditRecordHash(linked);
    return linked;
  }

  /** The record was stored: it is now its session's newest. */
  commit(record: AuditEvent): void {
    if (record.hash !== undefined) this.#last.set(record.sessionId, record.hash);
  }
}

/** How a record breaks the chain; see {@link verifyAuditChain}. */
export type AuditChainBreakKind = 'edited' | 'removed' | 'reordered' | 'inserted' | 'unchained';

/** The first record that breaks the hash chain. */
export interface AuditChainBreak {
  kind: AuditChainBreakKind;
  /** Where the record is: `file:line` or `file#rowid`. */
  location: string;
  /** 0-based position of the record in what was verified. */
  index: number;
  sessionId: string;
  /** One sentence a person can act on, starting with the location. */
  message: string;
}

/** What {@link verifyAuditChain} found. */
export interface AuditChainResult {
  ok: boolean;
  /** Records checked (all of them when `ok`). */
  records: number;
  /** Sessions seen. */
  sessions: number;
  /** The first break, when not `ok`. */
  break?: AuditChainBreak;
}

/** One stored record and where it is, for {@link verifyAuditChain}. */
export interface LocatedAuditEvent {
  event: AuditEvent;
  location: string;
}

/**
 * Checks the hash chain of stored audit records in storage order (file lines, row ids) and names
 * the first record that was edited, removed, reordered or inserted.
 *
 * - `edited`: the record's content no longer matches its own `hash`.
 * - `reordered`: its `prevHash` names a record of its session stored after it.
 * - `inserted`: it repeats a record already seen, or its `prevHash` skips back over records
 *   (the record after the one it names is the one that does not belong).
 * - `removed`: its `prevHash` names no stored record (one before it is gone, or was rewritten).
 * - `unchained`: it has no `hash`/`prevHash` (written before the chain existed, or stripped).
 *
 * Removing the newest records of a session leaves a valid, shorter chain: compare the count or the
 * last `hash` with a copy kept elsewhere to catch that.
 *
 * @example
 * ```ts
 * const result = verifyAuditChain(events.map((event, i) => ({ event, location: `audit.jsonl:${i + 1}` })));
 * if (!result.ok) console.error(result.break?.message);
 * ```
 */
export function verifyAuditChain(records: readonly LocatedAuditEvent[]): AuditChainResult {
  // Where each record hash is stored, per session, to tell a reorder from a removal.
  const positions = new Map<string, Map<string, number>>();
  records.forEach(({ event }, i) => {
    if (event.hash === undefined) return;
    let bySession = positions.get(event.sessionId);
    if (bySession === undefined) positions.set(event.sessionId, (bySession = new Map<string, number>()));
    if (!bySession.has(event.hash)) bySession.set(event.hash, i);
  });
  const last = new Map<string, { hash: string; index: number }>();
  const seen = new Set<string>();
  const fail = (kind: AuditChainBreakKind, index: number, message: string): AuditChainResult => {
    const { event, location } = locate(records, index);
    return {
      ok: false,
      records: index,
      sessions: last.size,
      break: { kind, location, index, sessionId: event.sessionId, message: `${location}: ${message}` },
    };
  };
  for (let i = 0; i < records.length; i += 1) {
    const { event } = locate(records, i);
    const session = event.sessionId;
    if (typeof event.hash !== 'string' || typeof event.prevHash !== 'string') {
      return fail('unchained', i, `record of session ${JSON.stringify(session)} has no hash chain (hash, prevHash)`);
    }
    if (hashOrUndefined(event) !== event.hash) {
      return fail('edited', i, `record of session ${JSON.stringify(session)} was edited: its content does not match its hash`);
    }
    if (seen.has(`${session}\u0000${event.hash}`)) {
      return fail('inserted', i, `record of session ${JSON.stringify(session)} was inserted: it repeats an earlier record`);
    }
    const expected = last.get(session);
    const expectedHash = expected?.hash ?? AUDIT_GENESIS_HASH;
    if (event.prevHash !== expectedHash) {
      const at = positions.get(session)?.get(event.prevHash);
      if (at !== undefined && at > i) {
        return fail('reordered', i, `record of session ${JSON.stringify(session)} was moved: it follows a record stored after it`);
      }
      if (event.prevHash === AUDIT_GENESIS_HASH) {
        return fail('inserted', i, `record of session ${JSON.stringify(session)} was inserted: it starts the session's chain again`);
      }
      const following = records.find((r, j) => j > i && r.event.sessionId === session);
      if (at === undefined && following?.event.prevHash === expectedHash) {
        return fail('inserted', i, `record of session ${JSON.stringify(session)} was inserted: the next record skips it`);
      }
      if (at !== undefined) {
        const next = records.findIndex((r, j) => j > at && r.event.sessionId === session);
        return fail('inserted', next === -1 ? i : next, `record of session ${JSON.stringify(session)} was inserted: the chain skips it`);
      }
      const before = expected === undefined ? 'the start of the session' : locate(records, expected.index).location;
      return fail(
        'removed',
        i,
        `the record before this one (session ${JSON.stringify(session)}) was removed or rewritten: ` +
          `its prevHash does not match ${expected === undefined ? before : `the record at ${before}`}`,
      );
    }
    seen.add(`${session}\u0000${event.hash}`);
    last.set(session, { hash: event.hash, index: i });
  }
  return { ok: true, records: records.length, sessions: last.size };
}

function locate(records: readonly LocatedAuditEvent[], index: number): LocatedAuditEvent {
  const record = records[index];
  // An internal assertion: callers pass indexes of `records` only.
  if (record === undefined) throw new RangeError(`no audit record at ${index}`);
  return record;
}
