import { closeSync, fstatSync, fsyncSync, mkdirSync, openSync, readSync, writeSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { dirname } from 'node:path';
import type { QueryableAuditBus } from './audit-bus.js';
import { AuditError } from './audit-error.js';
import { AuditChain } from './audit-chain.js';
import { assertAuditEvent, toJson, type AuditEvent } from './audit-event.js';
import { matchesAuditQuery, normalizeAuditQuery, type AuditQuery } from './audit-query.js';
import { DEFAULT_MAX_AUDIT_LINE_LENGTH, readAuditLog, type AuditLogReadResult, type ReadAuditLogOptions } from './read-audit-log.js';

/** Options of {@link JsonlAuditBus}. */
export interface JsonlAuditBusOptions {
  /**
   * fsync after every event, so an event survives a power loss once `publish` returns.
   * Costs a disk flush per event (milliseconds on most disks); default false (the OS
   * writes it back within seconds, and a process crash alone loses nothing).
   */
  fsync?: boolean;
}

/**
 * An append-only JSON Lines audit log: one event per line, written with a single
 * `O_APPEND` write so lines from concurrent writers never interleave.
 *
 * Each line carries the hash chain (`prevHash`, `hash`, per session; see `verifyAuditChain`). Opening
 * an existing log reads it once to continue each session's chain; one writer per log keeps the
 * chain whole (two processes appending to one file each chain from what they saw).
 *
 * Opening a file whose last line was cut off by a crash seals it with a newline, so the
 * next event starts on a line of its own; readers skip the torn record
 * ({@link readAuditLog}).
 *
 * @example
 * ```ts
 * const bus = new JsonlAuditBus('logs/audit.jsonl');
 * const reporter = new AuditReporter({ sessionId: 's1', taskId: 't1', bus });
 * reporter.onStart('demo');
 * bus.close();
 * const { events } = await readAuditLog('logs/audit.jsonl');
 * ```
 */
export class JsonlAuditBus implements QueryableAuditBus {
  readonly path: string;
  /** True when opening found the file not ending in a newline (a write cut off by a crash) and ended it with one. */
  readonly recoveredTornLine: boolean;
  readonly #fsync: boolean;
  #fd: number | undefined;
  readonly #chain = new AuditChain();

  /** Opens (creating it and its directory if needed) the log at `path` for appending. */
  constructor(path: string, options: JsonlAuditBusOptions = {}) {
    this.path = path;
    this.#fsync = options.fsync ?? false;
    mkdirSync(dirname(path), { recursive: true });
    const fd = openSync(path, 'a+');
    try {
      this.recoveredTornLine = sealTornTail(fd);
    } catch (error) {
      closeSync(fd);
      throw error;
    }
    this.#fd = fd;
    seedChain(this.#chain, path);
  }

  /**
   * Appends the event as one line.
   *
   * @throws {AuditError} `AUDIT_INVALID_EVENT` (nothing written) or `AUDIT_BUS_CLOSED`;
   * the file system's error when the write fails.
   */
  publish(event: AuditEvent): void {
    const fd = this.#fd;
    if (fd === undefined) throw new AuditError('AUDIT_BUS_CLOSED', `JsonlAuditBus ${this.path} is closed`);
    const record = this.#chain.link(event, toJson(assertAuditEvent(event)));
    const line = Buffer.from(`${toJson(record)}\n`, 'utf8');
    let written = 0;
    while (written < line.length) written += writeSync(fd, line, written, line.length - written);
    if (this.#fsync) fsyncSync(fd);
    this.#chain.commit(record);
  }

  /** Reads the whole log back; see {@link readAuditLog}. */
  read(options?: ReadAuditLogOptions): Promise<AuditLogReadResult> {
    return readAuditLog(this.path, options);
  }

  /**
   * The logged events matching `query`, by time then line order (`order: 'desc'` for newest
   * first), at most `limit`, like `SqliteAuditBus.query` but read from the file (so it returns a
   * promise). Torn and invalid lines are skipped, as {@link readAuditLog} skips them.
   *
   * @throws {AuditError} `AUDIT_INVALID_QUERY` for an invalid query, `AUDIT_BUS_CLOSED` (as rejections).
   */
  async query(query: AuditQuery = {}): Promise<AuditEvent[]> {
    if (this.#fd === undefined) throw new AuditError('AUDIT_BUS_CLOSED', `JsonlAuditBus ${this.path} is closed`);
    const q = normalizeAuditQuery(query);
    const { events } = await readAuditLog(this.path);
    const found = events.filter((e) => matchesAuditQuery(e, q)).sort((a, b) => a.timestamp - b.timestamp);
    if (q.order === 'desc') found.reverse();
    return q.limit === undefined ? found : found.slice(0, q.limit);
  }

  /** Flushes to disk and closes the file; later `publish` calls throw `AUDIT_BUS_CLOSED`. Idempotent. */
  close(): void {
    const fd = this.#fd;
    if (fd === undefined) return;
    this.#fd = undefined;
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }
}

/** Ends a file that does not end in a newline with one; true when it had to. */
function sealTornTail(fd: number): boolean {
  const { size } = fstatSync(fd);
  if (size === 0) return false;
  const last = Buffer.alloc(1);
  readSync(fd, last, 0, 1, size - 1);
  if (last[0] === 0x0a) return false;
  writeSync(fd, '\n');
  return true;
}

/** Continues each session's chain from the newest chained record already in the file (read in chunks, any size). */
function seedChain(chain: AuditChain, path: string): void {
  const fd = openSync(path, 'r');
  try {
    const decoder = new StringDecoder('utf8');
    const chunk = Buffer.alloc(1024 * 1024);
    let rest = '';
    let position = 0;
    for (;;) {
      const bytes = readSync(fd, chunk, 0, chunk.length, position);
      if (bytes === 0) break;
      position += bytes;
      const lines = (rest + decoder.write(chunk.subarray(0, bytes))).split('\n');
      rest = lines.pop() ?? '';
      // A line longer than the largest record a bus writes is not one of its records.
      if (rest.length > DEFAULT_MAX_AUDIT_LINE_LENGTH) rest = '';
      for (const line of lines) seedLine(chain, line);
    }
    seedLine(chain, rest + decoder.end());
  } finally {
    closeSync(fd);
  }
}

function seedLine(chain: AuditChain, line: string): void {
  if (!line.includes('"hash"')) return;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  const { sessionId, hash } = value as { sessionId?: unknown; hash?: unknown };
  if (typeof sessionId === 'string' && typeof hash === 'string') chain.seed(sessionId, hash);
}
