import type { MaybePromise } from '@headway/runtime';
import type { Learning, PlaybookPattern } from './records.js';

/**
 * Where the playbook keeps its patterns. `loadPatterns` returns the stored records as they are
 * (JSON text or objects): the playbook validates them, so a corrupt store is reported, not trusted.
 */
export interface PlaybookStore {
  loadPatterns(): MaybePromise<readonly unknown[]>;
  /** Inserts or replaces the pattern with this `id`. */
  savePattern(pattern: PlaybookPattern): MaybePromise<void>;
}

/** Where learnings are kept; the same contract as {@link PlaybookStore}. */
export interface LearningsStore {
  loadLearnings(): MaybePromise<readonly unknown[]>;
  saveLearning(learning: Learning): MaybePromise<void>;
}

/**
 * Patterns and learnings in memory (copies, so a caller's later change does not leak in): for
 * tests and for runs whose memory need not outlive the process.
 */
export class MemoryContextStore implements PlaybookStore, LearningsStore {
  readonly #patterns = new Map<string, unknown>();
  readonly #learnings = new Map<string, unknown>();

  loadPatterns(): unknown[] {
    return [...this.#patterns.values()].map((p) => structuredClone(p));
  }

  savePattern(pattern: PlaybookPattern): void {
    this.#patterns.set(pattern.id, structuredClone(pattern));
  }

  loadLearnings(): unknown[] {
    return [...this.#learnings.values()].map((l) => structuredClone(l));
  }

  saveLearning(learning: Learning): void {
    this.#learnings.set(learning.id, structuredClone(learning));
  }

  /** Stores a raw record as it is (to test how a corrupt store is handled). */
  putRaw(kind: 'playbook' | 'learnings', id: string, value: unknown): void {
    (kind === 'playbook' ? this.#patterns : this.#learnings).set(id, value);
  }
}
