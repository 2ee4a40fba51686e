import type { LoopCheckpointer, RunState } from '../loop/run-state.js';
import type { Checkpoint, CheckpointToolCall } from './checkpoint.js';
import type { CheckpointStore } from './checkpoint-store.js';
import { LARGE_RESULT_THRESHOLD, externalizeLargeResult } from './large-result.js';
import { checkpointStateOf, logDelta, toCheckpointToolCall } from './run-state-codec.js';

/**
 * Connects one run's loop to a {@link CheckpointStore}: turns each save of the whole run
 * state into an incremental write (new messages, new log entries, changed tool-call
 * statuses, the small state), guarded by the store's `expect` counts.
 *
 * One instance per run. Internal to the runtime, which creates it from `deps.checkpointStore`.
 */
export class StoreCheckpointer implements LoopCheckpointer {
  readonly #store: CheckpointStore;
  readonly #generateId: () => string;
  #id: string | undefined;
  #ended = false;
  /** Seq writes of an async store still in flight; awaited before the checkpoint ends. */
  readonly #seqWrites = new Set<Promise<void>>();
  #messages = 0;
  #logRows = 0;
  #logTotal = 0;
  /** JSON of each call of the iteration in flight as last written, by id. */
  #calls = new Map<string, string>();
  #inFlight: number | null = null;

  constructor(store: CheckpointStore, generateId: () => string) {
    this.#store = store;
    this.#generateId = generateId;
  }

  /** Continues a stored checkpoint (a resumed run) instead of creating one. */
  attach(checkpoint: Checkpoint, state: RunState): void {
    this.#id = checkpoint.id;
    this.#messages = checkpoint.messages.length;
    this.#logRows = checkpoint.log.length;
    this.#logTotal = logDelta(state.log, 0).total;
    this.#inFlight = state.inFlight?.iteration ?? null;
    this.#calls = new Map(checkpoint.toolCalls.map((c) => [c.toolCallId, JSON.stringify(c)]));
  }

  /** The checkpoint being written, once created or attached. */
  get checkpointId(): string | undefined {
    return this.#id;
  }

  /** Creates the run's checkpoint; for a resumed run (attached) it returns the existing one. */
  async create(state: RunState): Promise<string> {
    if (this.#id !== undefined) return this.#id;
    const id = this.#generateId();
    const log = logDelta(state.log, 0);
    const calls = this.#inFlightCalls(state);
    await this.#store.create({
      id,
      runId: state.runId,
      sessionId: state.sessionId,
      taskId: state.taskId,
      input: state.input,
      state: checkpointStateOf(state, log.meta),
      messages: state.messages,
      log: log.rows,
      lastSeq: state.lastSeq,
    });
    if (calls.length > 0) await this.#store.update(id, { toolCalls: calls.map((c) => c.call) });
    this.#id = id;
    this.#messages = state.messages.length;
    this.#logRows = log.rows.length;
    this.#logTotal = log.total;
    for (const c of calls) this.#calls.set(c.call.toolCallId, c.json);
    return id;
  }

  async update(checkpointId: string, state: RunState): Promise<void> {
    // Everything is computed before the first await: `state` is the loop's live object.
    const messages = state.messages.slice(this.#messages);
    const log = logDelta(state.log, this.#logTotal);
    const inFlight = state.inFlight?.iteration ?? null;
    const clear = inFlight !== this.#inFlight && this.#calls.size > 0;
    const known = clear ? new Map<string, string>() : this.#calls;
    const changed = this.#inFlightCalls(state).filter((c) => known.get(c.call.toolCallId) !== c.json);
    await this.#store.update(checkpointId, {
      expect: { messages: this.#messages, log: this.#logRows },
      appendMessages: messages,
      appendLog: log.rows,
      state: checkpointStateOf(state, log.meta),
      ...(clear ? { clearToolCalls: true } : {}),
      toolCalls: changed.map((c) => c.call),
      lastSeq: state.lastSeq,
    });
    this.#messages += messages.length;
    this.#logRows += log.rows.length;
    this.#logTotal = log.total;
    if (clear) this.#calls = new Map();
    for (const c of changed) this.#calls.set(c.call.toolCallId, c.json);
    this.#inFlight = inFlight;
  }

  /** The store's lease check; a store without leases always holds its runs. */
  async checkLease(checkpointId: string): Promise<boolean> {
    return this.#store.checkLease === undefined ? true : await this.#store.checkLease(checkpointId);
  }

  async complete(checkpointId: string, state: RunState): Promise<void> {
    await this.#end(checkpointId, state, () => this.#store.complete(checkpointId));
  }

  async fail(checkpointId: string, state: RunState, error: string): Promise<void> {
    await this.#end(checkpointId, state, () => this.#store.fail(checkpointId, error));
  }

  /**
   * Stores a tool result over {@link LARGE_RESULT_THRESHOLD} characters once with the
   * checkpoint and returns a reference plus a preview; smaller ones (or before the
   * checkpoint exists) come back unchanged.
   */
  async externalize(content: string): Promise<string> {
    const id = this.#id;
    if (id === undefined || content.length <= LARGE_RESULT_THRESHOLD) return content;
    return (await externalizeLargeResult(this.#store, id, content)).text;
  }

  /**
   * Records the `seq` of an event just emitted, so a resumed run continues after it even
   * when the process dies before the next save. Cheap in SQLite (no fsync); never throws.
   */
  noteSeq(seq: number, onError: (error: unknown) => void): void {
    const id = this.#id;
    if (id === undefined || this.#ended) return;
    try {
      const pending = this.#store.update(id, { lastSeq: seq });
      if (pending instanceof Promise) {
        const settled: Promise<void> = pending.then(
          () => {
            this.#seqWrites.delete(settled);
          },
          (error: unknown) => {
            this.#seqWrites.delete(settled);
            onError(error);
          },
        );
        this.#seqWrites.add(settled);
      }
    } catch (error) {
      onError(error);
    }
  }

  async #end(checkpointId: string, state: RunState, finish: () => unknown): Promise<void> {
    try {
      // The final iteration (the answer, the report) is kept with the checkpoint too.
      await this.update(checkpointId, state);
    } finally {
      this.#ended = true;
      // An async store may run a seq write on another connection: it must not land after the
      // checkpoint is completed or failed (where it would be refused).
      await Promise.all(this.#seqWrites);
      await finish();
    }
  }

  #inFlightCalls(state: RunState): { call: CheckpointToolCall; json: string }[] {
    return (state.inFlight?.toolCalls ?? []).map((c, i) => {
      const call = toCheckpointToolCall(c, i);
      return { call, json: JSON.stringify(call) };
    });
  }
}
