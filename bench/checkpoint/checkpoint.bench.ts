// Cost of one iteration's checkpoint write early in a run (iteration 10) vs late (iteration 1,000), with
// 2 KB messages: the incremental SQLite layout vs a full-history rewrite of one JSON row.
// Target: iteration 1,000 costs at most 1.5× iteration 10 in time and bytes. Each iteration is written
// the way the runtime writes it: the model's tool request with the call started, the tool's
// result with the call finished, then the round itself (verification prompt, state, log).
// Run: pnpm -F @headway/bench bench:checkpoint
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CheckpointState } from '@headway/runtime';
import { SqliteCheckpointStore } from '@headway/store-sqlite';
import { MESSAGE_CHARS, checkpointInit, iterationUpdates, roundText as text } from '../lib/checkpoint-load.js';
import { median } from '../lib/compare.js';

const ROUNDS = 1_000;
const EARLY = [6, 15] as const; // "iteration 10": the median over iterations 6–15
const LATE = [991, 1_000] as const; // "iteration 1,000": over iterations 991–1,000
function state(round: number): CheckpointState {
  return {
    iteration: round,
    toolsUsed: ['file_read', 'search'],
    // A ProgressTracker state of the estimator's shape: its size does not grow with the run.
    tracker: {
      version: 1,
      percent: Math.min(99, Math.floor(round / 11)),
      completed: false,
      roundtrips: round,
      finishedRoundtrips: round,
      phase: 'idle',
      toolCalls: round,
      stepToolCalls: 0,
      finishedSteps: [],
      llmMs: 812.5,
      toolsMs: 41.2,
      observedRoundtrips: round,
      elapsedMs: round * 900,
    },
    usage: { inputTokens: 1_200 * round, outputTokens: 90 * round },
    spentUsd: 0.004 * round,
    providerCalls: round,
    extra: {
      startedAt: 0,
      failureStreaks: { file_read: 0 },
      inFlightIteration: null,
      windDown: null,
      extendedMs: 0,
      approached: [],
      log: null,
    },
  };
}

interface Sample {
  ms: number;
  bytes: number;
}

function walSize(path: string): number {
  try {
    return statSync(`${path}-wal`).size;
  } catch {
    return 0;
  }
}

/** One run of the incremental store; per-round time and bytes appended to the WAL. */
function incrementalRun(synchronous: 'FULL' | 'OFF'): Map<number, Sample> {
  const dir = mkdtempSync(join(tmpdir(), 'headway-bench-cp-'));
  const path = join(dir, 'agent.db');
  const store = new SqliteCheckpointStore(path);
  // No WAL checkpoints during the run, so the WAL's growth is exactly what each commit wrote.
  store.database.pragma('wal_autocheckpoint = 0');
  store.database.pragma(`synchronous = ${synchronous}`);
  store.create(checkpointInit('cp', state(0)));
  const samples = new Map<number, Sample>();
  for (let round = 1; round <= ROUNDS; round++) {
    const before = walSize(path);
    const t0 = performance.now();
    for (const update of iterationUpdates(round, state)) store.update('cp', update);
    const ms = performance.now() - t0;
    samples.set(round, { ms, bytes: walSize(path) - before });
  }
  store.close();
  rmSync(dir, { recursive: true, force: true });
  return samples;
}

/** The naive layout: the whole run as one JSON row, rewritten every iteration. Only the measured iterations are timed. */
function fullRewriteRun(synchronous: 'FULL' | 'OFF'): Map<number, Sample> {
  const dir = mkdtempSync(join(tmpdir(), 'headway-bench-full-'));
  const path = join(dir, 'agent.db');
  // A store only for its connection (WAL, the same pragmas); the table is the naive one.
  const db = new SqliteCheckpointStore(path).database;
  db.pragma('wal_autocheckpoint = 0');
  db.pragma(`synchronous = ${synchronous}`);
  db.exec('CREATE TABLE runs (id TEXT PRIMARY KEY, body TEXT NOT NULL)');
  const put = db.prepare('INSERT INTO runs (id, body) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET body = excluded.body');
  const messages: unknown[] = [];
  const log: unknown[] = [];
  const samples = new Map<number, Sample>();
  const measured = (r: number): boolean => (r >= EARLY[0] && r <= EARLY[1]) || (r >= LATE[0] && r <= LATE[1]);
  for (let round = 1; round <= ROUNDS; round++) {
    messages.push(
      { role: 'assistant', content: text(round, 'assistant') },
      { role: 'tool', content: text(round, 'tool result') },
      { role: 'user', content: 'Has the done-criterion been met?' },
    );
    log.push({ kind: 'tool', iteration: round, resultBrief: text(round, 'brief').slice(0, 500) });
    if (!measured(round)) continue;
    const before = walSize(path);
    const t0 = performance.now();
    // Three saves per iteration, as above, each rewriting everything.
    for (let i = 0; i < 3; i++) put.run('run', JSON.stringify({ state: state(round), messages, log }));
    samples.set(round, { ms: performance.now() - t0, bytes: walSize(path) - before });
  }
  db.close();
  rmSync(dir, { recursive: true, force: true });
  return samples;
}

function window(samples: Map<number, Sample>, [from, to]: readonly [number, number]): Sample {
  const list = [...samples].filter(([r]) => r >= from && r <= to).map(([, s]) => s);
  return { ms: median(list.map((s) => s.ms)), bytes: median(list.map((s) => s.bytes)) };
}

function row(name: string, samples: Map<number, Sample>): string {
  const early = window(samples, EARLY);
  const late = window(samples, LATE);
  const kb = (b: number): string => (b / 1024).toFixed(1);
  return `| ${name} | ${early.ms.toFixed(3)} | ${late.ms.toFixed(3)} | ${(late.ms / early.ms).toFixed(2)} | ${kb(early.bytes)} | ${kb(late.bytes)} | ${(late.bytes / early.bytes).toFixed(2)} |`;
}

console.log(
  `\nOne round's checkpoint writes (3 commits), ${MESSAGE_CHARS} B messages; medians over rounds ${EARLY.join('–')} and ${LATE.join('–')}`,
);
console.log('| layout | ms iteration 10 | ms iteration 1,000 | time × | KiB iteration 10 | KiB iteration 1,000 | bytes × |');
console.log('|---|---:|---:|---:|---:|---:|---:|');
const incrementalFull = incrementalRun('FULL');
console.log(row('incremental SQLite, synchronous=FULL (as shipped)', incrementalFull));
console.log(row('incremental SQLite, synchronous=OFF (CPU only)', incrementalRun('OFF')));
console.log(row('full-history rewrite, synchronous=FULL', fullRewriteRun('FULL')));
console.log(row('full-history rewrite, synchronous=OFF', fullRewriteRun('OFF')));

const early = window(incrementalFull, EARLY);
const late = window(incrementalFull, LATE);
if (late.bytes / early.bytes > 1.5) console.log(`\nBYTES TARGET MISSED: ${(late.bytes / early.bytes).toFixed(2)}× > 1.5×`);
if (late.ms / early.ms > 1.5) console.log(`\nTIME TARGET MISSED: ${(late.ms / early.ms).toFixed(2)}× > 1.5×`);
