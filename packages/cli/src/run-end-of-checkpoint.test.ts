import type { Checkpoint, CheckpointSummary } from '@headway/runtime';
import { describe, expect, it } from 'vitest';
import { runEndOfCheckpoint } from './run-end-of-checkpoint.js';

const summary: CheckpointSummary = {
  id: 'cp-1',
  runId: 'run-1',
  sessionId: 's-1',
  taskId: 't-1',
  status: 'completed',
  iteration: 2,
  createdAt: 0,
  updatedAt: 0,
};
function checkpoint(status: Checkpoint['status'], extra: unknown): Checkpoint {
  return {
    ...summary,
    status,
    input: 'task',
    state: {
      iteration: 2,
      toolsUsed: [],
      usage: { inputTokens: 0, outputTokens: 0 },
      spentUsd: 0,
      providerCalls: 2,
      extra: extra as Record<string, unknown>,
    },
    messages: [],
    log: [],
    toolCalls: [],
    lastSeq: 0,
  };
}

describe('runEndOfCheckpoint', () => {
  it('reads the end the runtime recorded, so a limit-stopped run is never completed', () => {
    expect(runEndOfCheckpoint(checkpoint('completed', { end: { state: 'limit', limit: 'cost' } }), summary)).toEqual({
      state: 'limit',
      limit: 'cost',
    });
    expect(runEndOfCheckpoint(checkpoint('completed', { end: { state: 'cancelled' } }), summary)).toEqual({ state: 'cancelled' });
  });

  it('falls back on the lifecycle for older or unreadable records, and never trusts a bad one', () => {
    expect(runEndOfCheckpoint(checkpoint('running', {}), { ...summary, status: 'running' })).toEqual({ state: 'interrupted' });
    expect(runEndOfCheckpoint(checkpoint('failed', { end: { state: 'bored' } }), { ...summary, status: 'failed' })).toEqual({
      state: 'failed',
    });
    expect(runEndOfCheckpoint(undefined, { ...summary, status: 'abandoned' })).toEqual({ state: 'cancelled' });
    expect(runEndOfCheckpoint(checkpoint('completed', null), summary)).toEqual({ state: 'completed' });
  });
});
