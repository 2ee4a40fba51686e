import { z } from 'zod';
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { HeadwayError } from '@headway/protocol';
import { AgentRuntime, defineTool, type ChatMessage } from '@headway/runtime';
import { ScriptedProvider } from '@headway/runtime/testing';
import { checkpointInit as init } from '@headway/runtime/testing/conformance';
import { PostgresCheckpointStore } from './postgres-checkpoint-store.js';
import { freshPool, usePostgres } from './testing/postgres-fixture.test-util.js';

const server = await usePostgres();

type Query = (...args: unknown[]) => unknown;

/** Makes the pool's connections misbehave once: `before(text, client)` may answer instead of sending `text`. */
function intercept(pool: pg.Pool, before: (text: string, send: Query) => unknown): void {
  pool.on('connect', (client) => {
    const original = client.query.bind(client) as Query;
    (client as unknown as { query: Query }).query = (...args: unknown[]) => {
      // A statement comes as text or as a config object (a named prepared statement).
      const first = args[0];
      const raw = typeof first === 'string' ? first : typeof first === 'object' && first !== null ? (first as { text?: unknown }).text : '';
      const text = typeof raw === 'string' ? raw.trimStart() : '';
      return before(text, original) ?? original(...args);
    };
  });
}

const KILL_SELF = 'SELECT pg_terminate_backend(pg_backend_pid())';

if (server !== undefined) {
  const pgServer = server;
  describe('PostgresCheckpointStore on a connection that drops', () => {
    it('retries a write whose connection dropped before COMMIT: stored once', async () => {
      const { pool } = await freshPool(pgServer);
      let armed = false;
      let dropped = 0;
      intercept(pool, (text, send) => {
        // An update's one statement (it inserts the messages), inside the transaction.
        if (!armed || dropped > 0 || !text.startsWith('WITH head AS')) return undefined;
        dropped += 1;
        // The server ends this session mid-transaction, as a restart or a network cut would.
        return send(KILL_SELF);
      });
      const store = new PostgresCheckpointStore(pool);
      await store.create(init('cp-1', { messages: ['m0'] }));
      armed = true;
      await store.update('cp-1', { appendMessages: ['m1'], expect: { messages: 1, log: 0 } });
      expect(dropped).toBe(1);
      expect((await store.load('cp-1'))?.messages).toEqual(['m0', 'm1']);
      await pool.end();
    });

    it('reports a write whose COMMIT got no answer as POSTGRES_CONNECTION_LOST, and never as saved', async () => {
      const { pool } = await freshPool(pgServer);
      let armed = false;
      intercept(pool, (text, send) => {
        if (!armed || text !== 'COMMIT') return undefined;
        armed = false;
        return send(KILL_SELF);
      });
      const store = new PostgresCheckpointStore(pool);
      await store.create(init('cp-1', { messages: ['m0'] }));
      armed = true;
      let caught: unknown;
      try {
        await store.update('cp-1', { appendMessages: ['m1'] });
      } catch (error) {
        caught = error;
      }
      expect(HeadwayError.isInstance(caught, 'POSTGRES_CONNECTION_LOST')).toBe(true);
      expect((caught as Error).message).toMatch(
        /^postgres 127\.0\.0\.1:\d+\/t_\d+_\d+: the connection dropped during COMMIT; the write may or may not have been stored$/,
      );
      expect((await store.load('cp-1'))?.messages).toEqual(['m0']);
      await pool.end();
    });

    it('a run survives the server restarting in the middle of it', async () => {
      const { pool } = await freshPool(pgServer);
      const store = new PostgresCheckpointStore(pool);
      let restarted = false;
      const runtime = new AgentRuntime(
        { provider: 'scripted', maxIterations: 10 },
        {
          provider: new ScriptedProvider((conversation: readonly ChatMessage[]) => {
            const done = conversation.filter((m) => m.role === 'assistant').length;
            return done >= 3
              ? { content: 'Finished.' }
              : { content: `Step ${done + 1}.`, toolCalls: [{ id: `c${done + 1}`, name: 'step', args: { n: done + 1 } }] };
          }),
          tools: [
            defineTool({
              name: 'step',
              description: 'One step',
              parameters: z.object({ n: z.number() }),
              execute: async ({ n }) => {
                if (n === 2 && !restarted) {
                  restarted = true;
                  await pgServer.restart();
                }
                return `step ${n} done`;
              },
            }),
          ],
          checkpointStore: store,
        },
      );
      const result = await runtime.run('Do three steps', { sessionId: 's1' });
      expect(restarted).toBe(true);
      expect(result.status).toBe('completed');
      const [summary] = await store.list();
      expect(summary?.status).toBe('completed');
      const cp = await store.load(summary?.id ?? '');
      expect(cp?.messages.filter((m) => (m as { role?: string }).role === 'tool').map((m) => (m as { content?: unknown }).content)).toEqual(
        ['step 1 done', 'step 2 done', 'step 3 done'],
      );
      await pool.end();
    }, 60_000);
  });
}
