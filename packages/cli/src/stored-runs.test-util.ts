// The runs the `runs` and `cost` commands are tested on, stored the same way in SQLite and in PostgreSQL.
import type { CheckpointStore, SessionStore } from '@headway/runtime';

/**
 * Stores two runs of session `s-1`: `cp-live` (running, iteration 2, $0.0123 spent, 1200 tokens
 * in, 300 out) and `cp-done` (completed); the session has one run of 6 calls and $0.5123.
 */
export async function storeSampleRuns(checkpoints: CheckpointStore, sessions: SessionStore): Promise<void> {
  const state = {
    iteration: 2,
    toolsUsed: ['read'],
    usage: { inputTokens: 1200, outputTokens: 300 },
    spentUsd: 0.0123,
    providerCalls: 3,
  };
  const run = { sessionId: 's-1', input: 'task', messages: [], log: [] };
  await checkpoints.create({ ...run, id: 'cp-live', runId: 'run-1', taskId: 't-1', state });
  await checkpoints.create({ ...run, id: 'cp-done', runId: 'run-2', taskId: 't-2', state: { ...state, spentUsd: 0.5 } });
  await checkpoints.complete('cp-done');
  await sessions.create('s-1');
  await sessions.recordRun('s-1', { messages: [], spentUsd: 0.5123, calls: 6 });
}
