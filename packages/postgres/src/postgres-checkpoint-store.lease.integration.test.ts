import { createServer, connect, type Server, type Socket } from 'node:net';
import { AgentRuntime, INTERRUPTED_ELSEWHERE, defineTool } from '@headway/runtime';
import { ScriptedProvider } from '@headway/runtime/testing';
import { ManualClock, type ProgressEvent } from '@headway/protocol';
import pg from 'pg';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { PostgresCheckpointStore } from './postgres-checkpoint-store.js';
import { usePostgres } from './testing/postgres-fixture.test-util.js';

const server = await usePostgres();

/** The state of a checkpoint these tests create: one iteration in, nothing else of note. */
const state = { iteration: 1, toolsUsed: [], usage: { inputTokens: 1, outputTokens: 1 }, spentUsd: 0, providerCalls: 1 };

/** A TCP relay on 127.0.0.1 whose traffic can be held back both ways: a worker cut off from its database. */
async function startRelay(
  targetPort: number,
): Promise<{ port: number; block: () => void; unblock: () => void; close: () => Promise<void> }> {
  let blocked = false;
  const held: (() => void)[] = [];
  const sockets = new Set<Socket>();
  const relay: Server = createServer((client) => {
    const upstream = connect(targetPort, '127.0.0.1');
    for (const s of [client, upstream]) sockets.add(s);
    const forward = (from: Socket, to: Socket): void => {
      from.on('data', (data: Buffer) => {
        if (blocked) held.push(() => to.write(data));
        else to.write(data);
      });
    };
    forward(client, upstream);
    forward(upstream, client);
    const end = (): void => {
      client.destroy();
      upstream.destroy();
    };
    for (const s of [client, upstream]) {
      s.on('error', end);
      s.on('close', end);
    }
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  const address = relay.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    port: address.port,
    block: () => {
      blocked = true;
    },
    unblock: () => {
      blocked = false;
      for (const send of held.splice(0)) send();
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => relay.close(resolve));
    },
  };
}

if (server !== undefined) {
  const pgServer = server;
  describe('PostgresCheckpointStore leases fence side effects', () => {
    const closers: (() => Promise<unknown>)[] = [];
    afterAll(async () => {
      for (const close of closers.reverse()) await close().catch(() => undefined);
    });

    it('list says who holds each running checkpoint and whether the lease is live, to a store that only inspects', async () => {
      const pool = new pg.Pool({ connectionString: await pgServer.createDatabase('lease_summary') });
      closers.push(() => pool.end());
      const worker = new PostgresCheckpointStore(pool, { worker: { id: 'worker-x', leaseMs: 60_000 } });
      const inspector = new PostgresCheckpointStore(pool);
      for (const id of ['cp-1', 'cp-2']) {
        await worker.create({ id, runId: `run-${id}`, sessionId: 's', taskId: 't', input: 'x', messages: [], log: [], state });
      }
      await inspector.create({ id: 'cp-3', runId: 'run-cp-3', sessionId: 's', taskId: 't', input: 'x', messages: [], log: [], state });
      const leases = async (): Promise<[string, string, unknown][]> =>
        (await inspector.list()).sort((a, b) => (a.id < b.id ? -1 : 1)).map((c): [string, string, unknown] => [c.id, c.status, c.lease]);
      expect(await leases()).toEqual([
        ['cp-1', 'running', { owner: 'worker-x', live: true }],
        ['cp-2', 'running', { owner: 'worker-x', live: true }],
        ['cp-3', 'running', undefined],
      ]);
      // A worker that died stopped renewing: its lease has expired by the database's clock.
      await pool.query("UPDATE headway_checkpoints SET lease_owner = 'worker-dead', lease_expires = 0 WHERE id = 'cp-3'");
      await worker.complete('cp-1');
      expect(await leases()).toEqual([
        ['cp-1', 'completed', undefined],
        ['cp-2', 'running', { owner: 'worker-x', live: true }],
        ['cp-3', 'running', { owner: 'worker-dead', live: false }],
      ]);
      // A worker that closes releases its leases: the run is nobody's.
      await worker.close();
      expect((await leases())[1]).toEqual(['cp-2', 'running', undefined]);
    });

    it('a worker renews the leases it holds, with no write of its own, until it closes', async () => {
      const pool = new pg.Pool({ connectionString: await pgServer.createDatabase('lease_renewal') });
      closers.push(() => pool.end());
      // Renewed every second (a third of the lease); the test waits for renewals, not for a time.
      const worker = new PostgresCheckpointStore(pool, { worker: { id: 'worker-r', leaseMs: 3_000 } });
      await worker.create({ id: 'cp-r', runId: 'run-cp-r', sessionId: 's', taskId: 't', input: 'x', messages: [], log: [], state });
      const expires = async (): Promise<number> =>
        Number((await pool.query<{ e: number }>("SELECT lease_expires AS e FROM headway_checkpoints WHERE id = 'cp-r'")).rows[0]?.e);
      let seen = await expires();
      // Two renewals in a row, each moving the expiry later than the last one seen.
      for (let renewal = 0; renewal < 2; renewal++) {
        const before = seen;
        await vi.waitFor(
          async () => {
            seen = await expires();
            expect(seen).toBeGreaterThan(before);
          },
          { timeout: 60_000, interval: 100 },
        );
      }
      // Closed, it releases the lease and renews no more.
      await worker.close();
      const { rows } = await pool.query<{ owner: string | null }>("SELECT lease_owner AS owner FROM headway_checkpoints WHERE id = 'cp-r'");
      expect(rows[0]?.owner ?? null).toBeNull();
    }, 180_000);

    it('a worker cut off from the database for longer than its lease, whose run another worker took over, runs no further tool', async () => {
      const url = new URL(await pgServer.createDatabase('lease_outage'));
      const relay = await startRelay(Number(url.port));
      closers.push(relay.close);
      const viaRelay = new URL(url);
      viaRelay.port = String(relay.port);
      const poolA = new pg.Pool({ connectionString: viaRelay.toString() });
      const poolB = new pg.Pool({ connectionString: url.toString() });
      closers.push(
        () => poolA.end(),
        () => poolB.end(),
      );
      // Leases far longer than the test's steps can take, however loaded the machine: no lease lapses
      // on its own and no renewal has to arrive on time; the outage's effect on A's lease is forced below.
      const leaseMs = 30_000;
      // A's clock moves only when the test says: its wait for the database never runs out early, and
      // the outage lasts exactly as long as the test makes it, by A's clock.
      const clockA = new ManualClock({ start: Date.now() });
      const storeA = new PostgresCheckpointStore(poolA, { clock: clockA, worker: { id: 'worker-a', leaseMs } });
      const storeB = new PostgresCheckpointStore(poolB, { worker: { id: 'worker-b', leaseMs } });
      closers.push(
        () => storeA.close(),
        () => storeB.close(),
      );

      const effects: string[] = [];
      let takenOver = '';
      let heldDuringOutage: boolean | undefined;
      const charge = defineTool({
        name: 'charge',
        description: 'Charge a card (a side effect that must not happen twice)',
        parameters: z.object({ n: z.number() }),
        execute: async ({ n }) => {
          effects.push(`worker-a charge ${n}`);
          if (n !== 1) return 'charged';
          // The outage starts between A's statements: a transaction of A's cut off half-way would hold
          // its row lock until the database noticed, and B's takeover would wait on it (on a busy
          // machine A's checkpoint write can still be in flight when the tool starts).
          await vi.waitFor(
            () => {
              expect(poolA.totalCount - poolA.idleCount).toBe(0);
            },
            { timeout: 60_000, interval: 20 },
          );
          // The outage: worker A's connection goes silent, longer than its lease; worker B takes the run over.
          relay.block();
          try {
            await vi.waitFor(
              async () => {
                // A's lease runs out by the database's clock (set here rather than waited for). Again on
                // each try: a renewal of A's that got through before the outage may land after it.
                await poolB.query("UPDATE headway_checkpoints SET lease_expires = 0 WHERE lease_owner = 'worker-a' AND status = 'running'");
                const [running] = await storeB.list({ status: 'running' });
                expect(running).toBeDefined();
                await storeB.load(running?.id ?? '');
                takenOver = running?.id ?? '';
              },
              { timeout: 60_000, interval: 100 },
            );
            // By A's clock too the outage outlasts its lease: unable to reach the database, A counts
            // the lease lost (the database's answer, held back, comes too late to count).
            await clockA.advance(leaseMs);
            const check = storeA.checkLease(takenOver);
            await clockA.advance(leaseMs);
            heldDuringOutage = await check;
          } finally {
            relay.unblock();
          }
          return 'charged';
        },
      });
      const events: ProgressEvent[] = [];
      const runtime = new AgentRuntime(
        { provider: 'scripted', maxIterations: 5 },
        {
          provider: new ScriptedProvider([
            { toolCalls: [1, 2, 3].map((n) => ({ id: `c${n}`, name: 'charge', args: { n } })) },
            { content: 'All charged.' },
          ]),
          tools: [charge],
          checkpointStore: storeA,
          sinks: [(e) => void events.push(e)],
          onInternalError: () => undefined,
        },
      );
      const result = await runtime.run('Charge three cards');

      expect(heldDuringOutage).toBe(false);
      expect(effects).toEqual(['worker-a charge 1']);
      expect(result.status).toBe('cancelled');
      const terminal = events.at(-1) as { type: string; reason?: string };
      expect(terminal.type).toBe('run.cancelled');
      expect(terminal.reason?.startsWith(`${INTERRUPTED_ELSEWHERE}: `)).toBe(true);
      expect(events.filter((e) => e.type === 'tool.executing')).toHaveLength(1);
      // The run is worker B's now, still running, with the first call's result: A's later writes were refused.
      const checkpoint = await storeB.load(takenOver);
      expect(checkpoint?.status).toBe('running');
      expect(checkpoint?.toolCalls.filter((c) => c.status === 'finished').map((c) => c.toolCallId) ?? []).not.toContain('c2');
    }, 120_000);
  });
}
