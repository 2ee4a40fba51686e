import { systemClock } from '@headway/protocol';
import { randomUUID } from 'node:crypto';
import type { Clock, OnInternalError } from '@headway/protocol';
import type { ContextErrorContext } from '../internal-error-context.js';
import { MemoryContextStore, type LearningsStore } from '../storage/context-store.js';
import { learningSchema, loadStoredRecords, parseStoredRecord, type Learning } from '../storage/records.js';

/** Options of {@link Learnings}. */
export interface LearningsOptions {
  /** Where learnings live (default in memory). */
  store?: LearningsStore;
  /** Clock of the records' times (default protocol's `systemClock`). */
  clock?: Clock;
  /** Ids (default `crypto.randomUUID`). */
  generateId?: () => string;
  /** Told once when the store cannot be read or holds records that do not parse (`CONTEXT_CORRUPT_STORE`). */
  onInternalError?: OnInternalError<ContextErrorContext>;
}

/**
 * Things learned that later runs should know ("the staging database is read-only"): the memory
 * synthesizer's highest-weighted source.
 *
 * @example
 * ```ts
 * const learnings = new Learnings();
 * await learnings.add('The staging database is read-only.');
 * ```
 */
export class Learnings {
  readonly #store: LearningsStore;
  readonly #now: () => number;
  readonly #id: () => string;
  readonly #onInternalError: OnInternalError<ContextErrorContext> | undefined;
  #all: Promise<Learning[]> | undefined;

  constructor(options: LearningsOptions = {}) {
    this.#store = options.store ?? new MemoryContextStore();
    const clock = options.clock ?? systemClock;
    this.#now = () => clock.now();
    this.#id = options.generateId ?? randomUUID;
    this.#onInternalError = options.onInternalError;
  }

  /** Remembers a learning (text up to 4,000 characters). */
  async add(text: string): Promise<Learning> {
    const learning = parseStoredRecord('learnings', learningSchema, { id: this.#id(), text, createdAt: this.#now() }, 'new learning');
    const all = await this.all();
    await this.#store.saveLearning(learning);
    all.push(learning);
    return learning;
  }

  /** Every learning, oldest first; a store that cannot be read is empty, a record that does not parse is left out (reported once). */
  all(): Promise<Learning[]> {
    this.#all ??= loadStoredRecords('learnings', learningSchema, () => this.#store.loadLearnings(), 'loadLearnings', this.#onInternalError);
    return this.#all;
  }
}
