import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PostgresCheckpointStore } from './postgres-checkpoint-store.js';
import { bundleWorker, startWorker } from './testing/processes.test-util.js';
import { usePostgres } from './testing/postgres-fixture.test-util.js';

const server = await usePostgres();

interface Effect {
  run: string;
  call: string;
  key: string;
  pid: number;
}

const CALLS = ['r1c1', 'r1c2', 'r2c1', 'r2c2', 'r3c1', 'r3c2'];

if (server !== undefined) {
  const pgServer = server;
  describe('PostgresCheckpointStore with many workers', () => {
    let worker: Awaited<ReturnType<typeof bundleWorker>>;
    const dir = mkdtempSync(join(tmpdir(), 'headway-pg-effects-'));
    beforeAll(async () => {
      worker = await bundleWorker();
    }, 60_000);
    afterAll(() => {
      worker.cleanup();
      rmSync(dir, { recursive: true, force: true });
    });

    async function interruptedRuns(name: string, runs: number): Promise<{ url: string; effects: string }> {
      const url = await pgServer.createDatabase(name);
      const effects = join(dir, `${name}.jsonl`);
      writeFileSync(effects, '');
      const setup = startWorker(worker.file, ['setup', url, effects, String(runs)]);
      await vi.waitFor(
        () => {
          expect(setup.lines.filter((l) => l.startsWith('STUCK ')).length).toBe(runs);
        },
        { timeout: 60_000, interval: 50 },
      );
      await setup.kill();
      return { url, effects };
    }

    function readEffects(file: string): Effect[] {
      return readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as Effect);
    }

    it('4 workers racing for 50 interrupted runs: each run resumed exactly once, every side effect once', async () => {
      const { url, effects } = await interruptedRuns('race', 50);
      const workers = [1, 2, 3, 4].map((n) => startWorker(worker.file, ['work', url, effects, `w${n}`, '30000']));
      for (const w of workers) expect(await w.waitFor((l) => l.startsWith('READY '))).toBe('READY 50');
      for (const w of workers) w.send('go');
      await Promise.all(workers.map((w) => w.waitFor((l) => l === 'DONE')));
      await Promise.all(workers.map((w) => w.exited()));

      const resumed = workers.flatMap((w) => w.lines.filter((l) => l.startsWith('RESUMED ')));
      const skipped = workers.flatMap((w) => w.lines.filter((l) => l.startsWith('SKIPPED ')));
      expect(resumed).toHaveLength(50);
      expect(new Set(resumed.map((l) => l.split(' ')[1])).size).toBe(50);
      expect(resumed.every((l) => l.endsWith(' completed'))).toBe(true);
      // Every other attempt was refused: claimed by another worker, or already finished.
      expect(skipped).toHaveLength(150);
      for (const line of skipped) expect(line).toMatch(/ (CHECKPOINT_CONFLICT|CHECKPOINT_NOT_RUNNING)$/);

      const byRun = new Map<string, string[]>();
      for (const e of readEffects(effects)) byRun.set(e.run, [...(byRun.get(e.run) ?? []), e.call]);
      expect(byRun.size).toBe(50);
      for (const [run, calls] of byRun) expect(calls.sort(), run).toEqual(CALLS);

      const pool = new pg.Pool({ connectionString: url });
      const store = new PostgresCheckpointStore(pool);
      const all = await store.list();
      expect(all).toHaveLength(50);
      expect(all.every((c) => c.status === 'completed')).toBe(true);
      await pool.end();
    }, 180_000);

    it('a worker that dies loses its lease and another picks the run up', async () => {
      const { url, effects } = await interruptedRuns('lease', 1);
      // Its connections carry its name, so the test can tell when the server has seen them go.
      const dyingUrl = new URL(url);
      dyingUrl.searchParams.set('application_name', 'w-dies');
      // Leases far longer than the test's steps can take, however loaded the machine: no renewal has
      // to arrive on time and no lease lapses on its own; the dead worker's lease is expired below.
      const first = startWorker(worker.file, ['work', dyingUrl.toString(), effects, 'w-dies', '30000', 'block']);
      expect(await first.waitFor((l) => l.startsWith('READY '))).toBe('READY 1');
      first.send('go');
      const blocked = await first.waitFor((l) => l.startsWith('BLOCKED '));
      const pool = new pg.Pool({ connectionString: url });
      const observer = new PostgresCheckpointStore(pool, { worker: { id: 'observer' } });
      // While the first worker lives, it holds the lease: the run is not pending for anyone else.
      expect(await observer.list({ status: 'running' })).toEqual([]);
      await first.kill();
      // Dead, it stops renewing: once the server has closed its connections, nothing can extend its lease.
      await vi.waitFor(
        async () => {
          const gone = await pool.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'w-dies'");
          expect(gone.rows[0]?.n).toBe(0);
        },
        { timeout: 60_000, interval: 50 },
      );
      // Its lease expires by the database's clock (set here rather than waited for): the run is pending again.
      const expired = await pool.query(
        "UPDATE headway_checkpoints SET lease_expires = 0 WHERE lease_owner = 'w-dies' AND status = 'running'",
      );
      expect(expired.rowCount).toBe(1);
      expect(await observer.list({ status: 'running' })).toMatchObject([{ lease: { owner: 'w-dies', live: false } }]);
      await pool.end();
      const second = startWorker(worker.file, ['work', url, effects, 'w-next', '30000']);
      expect(await second.waitFor((l) => l.startsWith('READY '))).toBe('READY 1');
      second.send('go');
      expect(await second.waitFor((l) => l.startsWith('RESUMED ') || l.startsWith('SKIPPED '))).toMatch(/^RESUMED \S+ completed$/);
      await second.exited();
      expect(blocked).toMatch(/^BLOCKED /);
      const calls = readEffects(effects)
        .map((e) => e.call)
        .sort();
      expect(calls).toEqual(CALLS);
    }, 120_000);
  });
}
