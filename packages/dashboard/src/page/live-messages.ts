// What the window and the live worker say to each other.
import type { PageRun, RunFrame } from './frames.js';

/** What the status line says: nothing while frames arrive, else why not. */
export interface LiveStatus {
  text: string;
  kind: 'live' | 'offline' | 'error';
}

/** Window → worker: follow a stream (`stream` numbers it, so late messages of an old one are ignored), or stop. */
export type LiveRequest = { kind: 'open'; stream: number; url: string; event: 'runs' | 'run' } | { kind: 'close' };

/** Worker → window. */
export type LiveMessage =
  /** A list snapshot: every run's id in its slot, and the runs that are new or changed since the last one. */
  | { kind: 'runs'; stream: number; order: string[]; changed: PageRun[]; total: number }
  /** A run page snapshot. */
  | { kind: 'run'; stream: number; frame: RunFrame }
  | { kind: 'status'; stream: number; status: LiveStatus };
