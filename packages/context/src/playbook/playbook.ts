import { systemClock } from '@headway/protocol';
import type { TaskHistory } from '@headway/estimator';
import type { Clock, OnInternalError } from '@headway/protocol';
import { z } from 'zod';
import type { ContextErrorContext } from '../internal-error-context.js';
import { parseOptions } from '../parse-options.js';
import type { PlaybookStore } from '../storage/context-store.js';
import { MemoryContextStore } from '../storage/context-store.js';
import { loadStoredRecords, playbookPatternSchema, type PlaybookPattern } from '../storage/records.js';
import { contentWords, oneLine } from '../text/words.js';
import { classifyTask } from './classify-task.js';

/** Successes after which the seed flags a pattern for promotion to a full skill. */
export const PROMOTE_AFTER_SUCCESSES = 3;
/** Runs kept per pattern for the estimator's history. */
const RUNS_KEPT = 50;
const TOOLS_KEPT = 32;

/** Options of {@link Playbook}. */
export interface PlaybookOptions {
  /** Where patterns live (default in memory). */
  store?: PlaybookStore;
  /** The kind of a task (default {@link classifyTask}). */
  classify?: (task: string) => string;
  /** Clock of the records' times (default protocol's `systemClock`). */
  clock?: Clock;
  /** Told once when the store cannot be read or holds records that do not parse (`CONTEXT_CORRUPT_STORE`). */
  onInternalError?: OnInternalError<ContextErrorContext>;
}

/** A finished run, as the playbook learns from it. */
export interface PlaybookRun {
  task: string;
  status: 'completed' | 'limit' | 'cancelled' | 'error';
  /** Tool names in call order. */
  toolCalls: readonly string[];
  iterations: number;
  durationMs: number;
}

/** What the playbook knows about how long a kind of task takes. */
export interface TaskTypeStats {
  taskType: string;
  /** Successful runs it knows of. */
  runs: number;
  /** Median iterations and duration of those runs. */
  typicalIterations: number;
  typicalDurationMs: number;
  /** The same runs as the estimator's `history`. */
  history: TaskHistory;
}

const fn = z.custom<(...args: never[]) => unknown>((v) => typeof v === 'function', 'expected a function');
const schema = z.strictObject({
  store: z
    .custom<PlaybookStore>(
      (v) =>
        typeof v === 'object' &&
        v !== null &&
        typeof (v as PlaybookStore).loadPatterns === 'function' &&
        typeof (v as PlaybookStore).savePattern === 'function',
      'expected { loadPatterns, savePattern }',
    )
    .optional(),
  classify: fn.optional(),
  clock: z
    .custom<Clock>((v) => typeof v === 'object' && v !== null && typeof (v as Clock).now === 'function', 'expected a Clock')
    .optional(),
  now: fn.optional(),
  onInternalError: fn.optional(),
});

/**
 * The AI playbook: after a successful tool-using run it records the task type, the tool
 * sequence and a prompt hint; `getRelevant(task)` returns the proven patterns for a task; a
 * pattern with 3 or more successes is flagged for promotion; and `stats(task)` hands the
 * estimator the typical iterations and duration of that kind of task.
 *
 * @throws {ContextError} `CONTEXT_INVALID_CONFIG` naming the bad option.
 * @example
 * ```ts
 * const playbook = new Playbook({ store: new MemoryContextStore() });
 * await playbook.record({ task: 'Fix the failing login test', status: 'completed', toolCalls: ['read_file', 'run_tests'], iterations: 3, durationMs: 42_000 });
 * (await playbook.getRelevant('Fix the failing signup test'))[0]?.promptHint;
 * ```
 */
export class Playbook {
  readonly #store: PlaybookStore;
  readonly #classify: (task: string) => string;
  readonly #now: () => number;
  readonly #onInternalError: OnInternalError<ContextErrorContext> | undefined;
  #patterns: Promise<Map<string, PlaybookPattern>> | undefined;

  constructor(options: PlaybookOptions = {}) {
    const o = parseOptions('Playbook', schema, options) as PlaybookOptions;
    this.#store = o.store ?? new MemoryContextStore();
    this.#classify = o.classify ?? classifyTask;
    const clock = o.clock ?? systemClock;
    this.#now = () => clock.now();
    this.#onInternalError = o.onInternalError;
  }

  /** The kind of a task, as this playbook classifies it. */
  taskType(task: string): string {
    const type = this.#classify(task);
    return typeof type === 'string' && type !== '' ? type.slice(0, 128) : 'general';
  }

  /** Learns from a finished run: only a completed run that called tools makes or strengthens a pattern. */
  async record(run: PlaybookRun): Promise<PlaybookPattern | undefined> {
    if (run.status !== 'completed' || run.toolCalls.length === 0) return undefined;
    const tools = fold(run.toolCalls).slice(0, TOOLS_KEPT);
    const taskType = this.taskType(run.task);
    const id = `${taskType}:${tools.join('>')}`;
    const patterns = await this.#load();
    const known = patterns.get(id);
    const entry = { iterations: Math.max(1, Math.round(run.iterations)), durationMs: Math.max(0, run.durationMs) };
    const keywords = [...new Set([...(known?.keywords ?? []), ...contentWords(run.task)])].slice(-64);
    const pattern: PlaybookPattern = {
      id,
      taskType,
      tools,
      promptHint: `For ${taskType} tasks such as "${oneLine(run.task, 80)}", this worked: ${tools.join(' → ')}.`,
      successes: (known?.successes ?? 0) + 1,
      runs: [...(known?.runs ?? []), entry].slice(-RUNS_KEPT),
      keywords,
      updatedAt: this.#now(),
    };
    patterns.set(id, pattern);
    await this.#store.savePattern(pattern);
    return pattern;
  }

  /** The proven patterns for a task: same task type, most successes first, then the most shared words. */
  async getRelevant(task: string, limit = 3): Promise<PlaybookPattern[]> {
    const taskType = this.taskType(task);
    const words = new Set(contentWords(task));
    const overlap = (p: PlaybookPattern): number => p.keywords.filter((k) => words.has(k)).length;
    return [...(await this.#load()).values()]
      .filter((p) => p.taskType === taskType)
      .sort((a, b) => b.successes - a.successes || overlap(b) - overlap(a) || a.id.localeCompare(b.id))
      .slice(0, Math.max(0, limit));
  }

  /** Patterns with 3 or more successes: candidates for a full skill. */
  async promotable(): Promise<PlaybookPattern[]> {
    return [...(await this.#load()).values()].filter((p) => p.successes >= PROMOTE_AFTER_SUCCESSES);
  }

  /** What the playbook knows of how long this kind of task takes; `undefined` before its first success. */
  async stats(task: string): Promise<TaskTypeStats | undefined> {
    const taskType = this.taskType(task);
    const runs = [...(await this.#load()).values()].filter((p) => p.taskType === taskType).flatMap((p) => p.runs);
    if (runs.length === 0) return undefined;
    return {
      taskType,
      runs: runs.length,
      typicalIterations: median(runs.map((r) => r.iterations)),
      typicalDurationMs: median(runs.map((r) => r.durationMs)),
      history: { runs: runs.map((r) => ({ roundtrips: r.iterations, durationMs: r.durationMs })) },
    };
  }

  /** Loads the store once; a store that cannot be read is empty, a record that does not parse is left out (reported once). */
  #load(): Promise<Map<string, PlaybookPattern>> {
    this.#patterns ??= loadStoredRecords(
      'playbook',
      playbookPatternSchema,
      () => this.#store.loadPatterns(),
      'loadPatterns',
      this.#onInternalError,
    ).then((patterns) => new Map(patterns.map((p) => [p.id, p])));
    return this.#patterns;
  }
}

/** Consecutive repeats folded: read, read, edit → read, edit. */
function fold(names: readonly string[]): string[] {
  const out: string[] = [];
  for (const n of names) if (typeof n === 'string' && n !== '' && out.at(-1) !== n) out.push(n.slice(0, 128));
  return out;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}
