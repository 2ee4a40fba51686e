import { systemClock } from '@headway/protocol';
import type { Clock } from '@headway/protocol';
import { decodeMessage, encodeRun, sessionExists, sessionNotFound, validateSessionId } from './session-codec.js';
import type { SessionRecord, SessionRunRecord, SessionStore, SessionSummary } from './session-store.js';

/** Options of the session stores. */
export interface SessionStoreOptions {
  /** Clock for `createdAt`/`updatedAt` (default protocol's `systemClock`). */
  clock?: Clock;
}

interface Entry {
  summary: SessionSummary;
  messages: string[];
}

/** A {@link SessionStore} in memory: sessions last as long as the process. */
export class MemorySessionStore implements SessionStore {
  readonly #now: () => number;
  readonly #entries = new Map<string, Entry>();

  constructor(options: SessionStoreOptions = {}) {
    const clock = options.clock ?? systemClock;
    this.#now = () => clock.now();
  }

  get(id: string): SessionRecord | undefined {
    const entry = this.#entries.get(id);
    if (entry === undefined) return undefined;
    return { ...entry.summary, messages: entry.messages.map((m, i) => decodeMessage(id, m, i)) };
  }

  create(id: string): SessionRecord {
    validateSessionId(id);
    if (this.#entries.has(id)) throw sessionExists(id);
    const now = this.#now();
    const summary: SessionSummary = { id, createdAt: now, updatedAt: now, messageCount: 0, spentUsd: 0, calls: 0, runs: 0 };
    this.#entries.set(id, { summary, messages: [] });
    return { ...summary, messages: [] };
  }

  recordRun(id: string, run: SessionRunRecord): void {
    const messages = encodeRun(id, run);
    const entry = this.#entries.get(id);
    if (entry === undefined) throw sessionNotFound(id);
    entry.messages.push(...messages);
    const s = entry.summary;
    s.messageCount = entry.messages.length;
    s.spentUsd += run.spentUsd;
    s.calls += run.calls;
    s.runs += 1;
    s.updatedAt = this.#now();
  }

  list(): SessionSummary[] {
    return [...this.#entries.values()]
      .map((e) => ({ ...e.summary }))
      .sort((a, b) => a.updatedAt - b.updatedAt || a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1));
  }

  delete(id: string): boolean {
    return this.#entries.delete(id);
  }
}
