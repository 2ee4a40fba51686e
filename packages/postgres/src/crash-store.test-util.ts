// The crash suite's store module: a PostgresCheckpointStore whose connections call `crash`
// right after inserting a message or writing a tool call's status (a create's inserts, or an
// update's one statement that wrote), inside the transaction and before COMMIT, so the suite can SIGKILL the process mid-commit (the server then rolls
// the transaction back when the connection drops).
import pg from 'pg';
import type { CrashStore } from '@headway/runtime/testing/conformance';
import { PostgresCheckpointStore } from './postgres-checkpoint-store.js';

type Query = (...args: unknown[]) => unknown;

function labels(text: string, values: unknown[], result: unknown): string[] {
  if (text.startsWith('WITH head AS')) {
    // An update: its messages start at the count the locked head had.
    const head = (result as { rows: { message_count: number; written: boolean }[] }).rows[0];
    if (head?.written !== true) return [];
    const ids = values[4] as string[];
    const bodies = values[6] as string[];
    return [
      ...(values[1] as unknown[]).map((_, i) => `cpw:msg:${head.message_count + i}`),
      ...ids.map((id, i) => `cpw:call:${id}:${(JSON.parse(bodies[i] ?? '{}') as { status?: string }).status ?? '?'}`),
    ];
  }
  if (text.startsWith('INSERT INTO headway_checkpoint_messages')) {
    const from = Number(values[1]);
    return (values[2] as unknown[]).map((_, i) => `cpw:msg:${from + i}`);
  }
  if (text.startsWith('INSERT INTO headway_checkpoint_tool_calls')) {
    const ids = values[1] as string[];
    const bodies = values[3] as string[];
    return ids.map((id, i) => `cpw:call:${id}:${(JSON.parse(bodies[i] ?? '{}') as { status?: string }).status ?? '?'}`);
  }
  return [];
}

export function openCrashStore(location: string, crash: (label: string) => void): CrashStore {
  const pool = new pg.Pool({ connectionString: location, max: 4 });
  pool.on('connect', (client) => {
    const original = client.query.bind(client) as Query;
    (client as unknown as { query: Query }).query = (...args: unknown[]) => {
      const result = original(...args);
      // A statement comes as (text, values) or as one config object (a named prepared statement).
      const config = typeof args[0] === 'object' && args[0] !== null ? (args[0] as { text?: unknown; values?: unknown }) : undefined;
      const text = config === undefined ? args[0] : config.text;
      const values = config === undefined ? args[1] : config.values;
      if (typeof text !== 'string' || !Array.isArray(values) || !(result instanceof Promise)) return result;
      return result.then((r: unknown) => {
        for (const label of labels(text.trimStart(), values, r)) crash(label);
        return r;
      });
    };
  });
  // A stable worker id: each child of the suite is the same worker restarted, taking its run back at once.
  const store = new PostgresCheckpointStore(pool, { worker: { id: 'crash-worker' } });
  return {
    store,
    close: async () => {
      await store.close();
      await pool.end();
    },
  };
}
