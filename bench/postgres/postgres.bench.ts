// PostgresCheckpointStore against a real PostgreSQL (initdb in a temp dir, fsync on), side by
// side with the SQLite store (synchronous=FULL) in one process:
//  1. one iteration's checkpoint write at iteration 10 vs iteration 1,000 (2 KB messages); target ≤ 1.5×;
//  2. rounds per second with 8 concurrent runs on one pool vs the SQLite store's single-run
//     rate, 7 interleaved rounds, median ratio; target ≥ 0.5×.
// A round is written as the runtime writes it: the tool request with the call started, the
// result with the call finished, then the round (prompt, state, log).
// Needs PostgreSQL binaries (HEADWAY_PG_BIN, PATH or /usr/lib/postgresql/*/bin).
// Run: pnpm -F @headway/bench bench:postgres
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { PostgresCheckpointStore } from '@headway/postgres';
import type { CheckpointState, CheckpointStore } from '@headway/runtime';
import { SqliteCheckpointStore } from '@headway/store-sqlite';
import { checkpointInit, iterationUpdates } from '../lib/checkpoint-load.js';
import { median } from '../lib/compare.js';
import { POSTGRES_MISSING, findPostgresBin, startPostgres } from '@headway/test-utils/servers';
import { verdict } from '../lib/verdict.js';

const EARLY = [6, 15] as const;
const LATE = [991, 1_000] as const;
const CONCURRENT = 8;
const THROUGHPUT_ROUNDS = 40;
const THROUGHPUT_REPEATS = 7;

function state(round: number): CheckpointState {
  return {
    iteration: round,
    toolsUsed: ['file_read'],
    usage: { inputTokens: 1_200 * round, outputTokens: 90 * round },
    spentUsd: 0.004 * round,
    providerCalls: round,
    tracker: { percent: Math.min(99, round) },
  };
}

async function create(store: CheckpointStore, id: string): Promise<void> {
  await store.create(checkpointInit(id, state(0)));
}

async function round(store: CheckpointStore, id: string, r: number): Promise<void> {
  for (const update of iterationUpdates(r, state)) await store.update(id, update);
}

const bin = findPostgresBin();
if (bin === undefined) {
  console.log(`skipped: ${POSTGRES_MISSING}`);
  process.exit(0);
}
const server = await startPostgres(bin, { fsync: true });
let failed = false;
try {
  // 1. Iteration 10 vs iteration 1,000: one run is first brought to the late range; then
  // the early and the late run are written alternately, so load from other processes hits both.
  const pool = new pg.Pool({ connectionString: await server.createDatabase('bench_rounds'), max: 4 });
  const store = new PostgresCheckpointStore(pool);
  await create(store, 'late');
  for (let r = 1; r < LATE[0]; r++) await round(store, 'late', r);
  await create(store, 'early');
  const times = new Map<number, number>();
  const timed = async (id: string, r: number): Promise<void> => {
    const t0 = performance.now();
    await round(store, id, r);
    times.set(r, performance.now() - t0);
  };
  for (let r = 1; r <= EARLY[1]; r++) {
    const late = LATE[0] - EARLY[0] + r;
    if (r < EARLY[0]) await round(store, 'early', r);
    else if (r % 2 === 0) {
      await timed('early', r);
      await timed('late', late);
    } else {
      await timed('late', late);
      await timed('early', r);
    }
  }
  const at = ([from, to]: readonly [number, number]): number =>
    median([...times].filter(([r]) => r >= from && r <= to).map(([, ms]) => ms));
  const early = at(EARLY);
  const late = at(LATE);
  const growth = late / early;
  console.log(
    `checkpoint write (3 transactions per iteration), median: iteration 10 ${early.toFixed(2)} ms, iteration 1,000 ${late.toFixed(2)} ms → ${growth.toFixed(2)}× (target ≤ 1.5×)`,
  );
  if (!verdict('postgres: checkpoint write at iteration 1,000 vs 10', growth, '<=', 1.5)) failed = true;
  await pool.end();

  // 2. 8 concurrent runs on one pool vs SQLite's single run, interleaved over rounds (order
  // alternating, fresh runs each round) so that load from other processes hits both sides.
  const dir = mkdtempSync(join(tmpdir(), 'headway-bench-pg-'));
  const sqlite = new SqliteCheckpointStore(join(dir, 'agent.db'));
  const shared = new pg.Pool({ connectionString: await server.createDatabase('bench_concurrent'), max: CONCURRENT });
  const pgStore = new PostgresCheckpointStore(shared);
  const sqliteRates: number[] = [];
  const pgRates: number[] = [];
  try {
    const sqliteRound = async (n: number): Promise<void> => {
      await create(sqlite, `cp-${n}`);
      const t0 = performance.now();
      for (let r = 1; r <= THROUGHPUT_ROUNDS; r++) await round(sqlite, `cp-${n}`, r);
      sqliteRates.push(THROUGHPUT_ROUNDS / ((performance.now() - t0) / 1000));
    };
    const pgRound = async (n: number): Promise<void> => {
      const ids = Array.from({ length: CONCURRENT }, (_, i) => `run-${n}-${i}`);
      for (const id of ids) await create(pgStore, id);
      const t0 = performance.now();
      await Promise.all(
        ids.map(async (id) => {
          for (let r = 1; r <= THROUGHPUT_ROUNDS; r++) await round(pgStore, id, r);
        }),
      );
      pgRates.push((CONCURRENT * THROUGHPUT_ROUNDS) / ((performance.now() - t0) / 1000));
    };
    for (let n = 0; n < THROUGHPUT_REPEATS; n++) {
      if (n % 2 === 0) {
        await sqliteRound(n);
        await pgRound(n);
      } else {
        await pgRound(n);
        await sqliteRound(n);
      }
    }
  } finally {
    sqlite.close();
    rmSync(dir, { recursive: true, force: true });
    await shared.end();
  }
  const ratios = pgRates.map((rate, i) => rate / sqliteRates[i]!);
  console.log('| round | SQLite single run (rounds/s) | Postgres 8 concurrent runs (rounds/s) | × SQLite |');
  console.log('|---:|---:|---:|---:|');
  ratios.forEach((ratio, i) => {
    console.log(`| ${String(i + 1)} | ${sqliteRates[i]!.toFixed(0)} | ${pgRates[i]!.toFixed(0)} | ${ratio.toFixed(2)} |`);
  });
  const ratio = median(ratios);
  console.log(
    `rounds/s, median of ${String(THROUGHPUT_REPEATS)} interleaved rounds: SQLite single run ${median(sqliteRates).toFixed(0)}, Postgres ${CONCURRENT} concurrent runs on one pool ${median(pgRates).toFixed(0)} → ${ratio.toFixed(2)}× (target ≥ 0.5×)`,
  );
  if (!verdict(`postgres: ${CONCURRENT} concurrent runs on one pool vs SQLite single run`, ratio, '>=', 0.5)) failed = true;
} finally {
  await server.stop();
}
process.exit(failed ? 1 : 0);
