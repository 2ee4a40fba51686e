import { systemClock } from '@headway/protocol';
import type { Clock } from '@headway/protocol';
import type {
  Checkpoint,
  CheckpointInit,
  CheckpointStatus,
  CheckpointSummary,
  CheckpointUpdate,
  CheckpointToolCall,
} from './checkpoint.js';
import { blobRef } from './blob-ref.js';
import {
  conflict,
  decodeJson,
  decodeState,
  decodeToolCall,
  encodeJson,
  notFound,
  notRunning,
  validateInit,
  validateUpdate,
} from './checkpoint-codec.js';
import { CheckpointError } from './checkpoint-error.js';
import type { CheckpointListFilter, CheckpointStore } from './checkpoint-store.js';

/** Options of {@link MemoryCheckpointStore}. */
export interface MemoryCheckpointStoreOptions {
  /** Clock for `createdAt`/`updatedAt` (default protocol's `systemClock`). */
  clock?: Clock;
}

interface Entry {
  summary: CheckpointSummary;
  input: string;
  state: string;
  messages: string[];
  log: string[];
  toolCalls: Map<string, string>;
  lastSeq: number;
  blobs: Map<string, string>;
}

/**
 * A {@link CheckpointStore} in memory: for tests, and for runs that want resume-after-error
 * within one process without a database. Contents are kept as JSON text, so it accepts,
 * stores and returns exactly what the SQLite store does.
 *
 * @example
 * ```ts
 * const store = new MemoryCheckpointStore();
 * store.create({ id: 'cp-1', runId: 'run-1', sessionId: 's', taskId: 't', input: 'hi',
 *   state: { iteration: 0, toolsUsed: [], usage: { inputTokens: 0, outputTokens: 0 }, spentUsd: 0, providerCalls: 0 } });
 * store.update('cp-1', { appendMessages: [{ role: 'user', content: 'hi' }] });
 * ```
 */
export class MemoryCheckpointStore implements CheckpointStore {
  readonly #now: () => number;
  readonly #entries = new Map<string, Entry>();

  constructor(options: MemoryCheckpointStoreOptions = {}) {
    const clock = options.clock ?? systemClock;
    this.#now = () => clock.now();
  }

  create(init: CheckpointInit): void {
    validateInit(init);
    const state = encodeJson(init.state, 'init.state', init.id);
    const messages = (init.messages ?? []).map((m, i) => encodeJson(m, `init.messages[${i}]`, init.id));
    const log = (init.log ?? []).map((e, i) => encodeJson(e, `init.log[${i}]`, init.id));
    if (this.#entries.has(init.id)) throw new CheckpointError('CHECKPOINT_EXISTS', `checkpoint ${init.id} exists already`);
    const now = this.#now();
    const entry: Entry = {
      summary: {
        id: init.id,
        runId: init.runId,
        sessionId: init.sessionId,
        taskId: init.taskId,
        status: 'running',
        iteration: init.state.iteration,
        createdAt: now,
        updatedAt: now,
      },
      input: init.input,
      state,
      messages,
      log,
      toolCalls: new Map(),
      lastSeq: init.lastSeq ?? 0,
      blobs: new Map(),
    };
    this.#entries.set(init.id, entry);
  }

  update(id: string, update: CheckpointUpdate): void {
    validateUpdate(id, update);
    const entry = this.#running(id);
    if (update.expect !== undefined) {
      const actual = { messages: entry.messages.length, log: entry.log.length };
      if (actual.messages !== update.expect.messages || actual.log !== update.expect.log) throw conflict(id, update.expect, actual);
    }
    // Encode everything before touching the entry: a bad value leaves it unchanged.
    const state = update.state === undefined ? undefined : encodeJson(update.state, 'update.state', id);
    const messages = (update.appendMessages ?? []).map((m, i) => encodeJson(m, `update.appendMessages[${i}]`, id));
    const log = (update.appendLog ?? []).map((e, i) => encodeJson(e, `update.appendLog[${i}]`, id));
    const calls = (update.toolCalls ?? []).map((c, i) => [c.toolCallId, encodeJson(c, `update.toolCalls[${i}]`, id)] as const);
    if (state !== undefined && update.state !== undefined) {
      entry.state = state;
      entry.summary.iteration = update.state.iteration;
    }
    entry.messages.push(...messages);
    entry.log.push(...log);
    if (update.clearToolCalls === true) entry.toolCalls.clear();
    for (const [callId, text] of calls) entry.toolCalls.set(callId, text);
    if (update.lastSeq !== undefined) entry.lastSeq = Math.max(entry.lastSeq, update.lastSeq);
    entry.summary.updatedAt = this.#now();
  }

  complete(id: string): void {
    this.#finish(id, 'completed');
  }

  fail(id: string, error: string): void {
    this.#finish(id, 'failed', error);
  }

  abandon(id: string): void {
    this.#finish(id, 'abandoned');
  }

  load(id: string): Checkpoint | undefined {
    const entry = this.#entries.get(id);
    if (entry === undefined) return undefined;
    const toolCalls: CheckpointToolCall[] = [...entry.toolCalls.values()].map((text, i) => decodeToolCall(text, `toolCalls[${i}]`, id));
    toolCalls.sort((a, b) => a.index - b.index || (a.toolCallId < b.toolCallId ? -1 : 1));
    return {
      ...entry.summary,
      input: entry.input,
      state: decodeState(entry.state, id),
      messages: entry.messages.map((m, i) => decodeJson(m, `messages[${i}]`, id)),
      log: entry.log.map((e, i) => decodeJson(e, `log[${i}]`, id)),
      toolCalls,
      lastSeq: entry.lastSeq,
    };
  }

  list(filter: CheckpointListFilter = {}): CheckpointSummary[] {
    const statuses = filter.status === undefined ? undefined : new Set(typeof filter.status === 'string' ? [filter.status] : filter.status);
    return [...this.#entries.values()]
      .map((e) => e.summary)
      .filter(
        (s) => (statuses === undefined || statuses.has(s.status)) && (filter.sessionId === undefined || s.sessionId === filter.sessionId),
      )
      .sort((a, b) => a.updatedAt - b.updatedAt || a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1))
      .map((s) => ({ ...s }));
  }

  delete(id: string): boolean {
    return this.#entries.delete(id);
  }

  putBlob(id: string, content: string): string {
    const entry = this.#entries.get(id);
    if (entry === undefined) throw notFound(id);
    if (typeof content !== 'string') throw new CheckpointError('CHECKPOINT_INVALID', `checkpoint ${id}: a blob must be a string`);
    const ref = blobRef(content);
    entry.blobs.set(ref, content);
    return ref;
  }

  getBlob(id: string, ref: string): string | undefined {
    return this.#entries.get(id)?.blobs.get(ref);
  }

  #running(id: string): Entry {
    const entry = this.#entries.get(id);
    if (entry === undefined) throw notFound(id);
    if (entry.summary.status !== 'running') throw notRunning(id, entry.summary.status);
    return entry;
  }

  #finish(id: string, status: Exclude<CheckpointStatus, 'running'>, error?: string): void {
    const entry = this.#running(id);
    entry.summary.status = status;
    if (error !== undefined) entry.summary.error = error;
    entry.summary.updatedAt = this.#now();
  }
}
