import type { MaybePromise } from '../checkpoint/maybe-promise.js';

/** A conversation that spans runs: `run(input, { sessionId })` continues it. */
export interface SessionSummary {
  id: string;
  createdAt: number;
  updatedAt: number;
  /** Messages of history kept. */
  messageCount: number;
  /** Money spent in this session across its runs (USD). */
  spentUsd: number;
  /** Provider calls made in this session across its runs. */
  calls: number;
  /** Runs recorded in this session. */
  runs: number;
}

/** A session with its history. */
export interface SessionRecord extends SessionSummary {
  /** The conversation of earlier runs, oldest first (plain JSON messages). */
  messages: unknown[];
}

/** What one finished run adds to its session. */
export interface SessionRunRecord {
  /** Messages to add to the history, in order. */
  messages: readonly unknown[];
  /** Money the run spent (USD). */
  spentUsd: number;
  /** Provider calls the run made. */
  calls: number;
}

/**
 * Durable session history. Every method may answer synchronously or with a promise;
 * callers `await` either way. Contents are stored as JSON: a store keeps no reference to
 * what it was given.
 */
export interface SessionStore {
  get(id: string): MaybePromise<SessionRecord | undefined>;
  /** Creates an empty session. @throws {SessionError} `SESSION_EXISTS`, `SESSION_INVALID`. */
  create(id: string): MaybePromise<SessionRecord>;
  /** Appends a run's messages and adds its spend, atomically. @throws {SessionError} `SESSION_NOT_FOUND`, `SESSION_INVALID`. */
  recordRun(id: string, run: SessionRunRecord): MaybePromise<void>;
  /** Sessions, most recently updated last. */
  list(): MaybePromise<SessionSummary[]>;
  /** Removes a session and its history; false if there was none. */
  delete(id: string): MaybePromise<boolean>;
}
