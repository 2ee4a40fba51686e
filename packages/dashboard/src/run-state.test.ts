import type { CheckpointSummary } from '@headway/runtime';
import { describe, expect, it } from 'vitest';
import { dashboardRunState } from './run-state.js';

const running: CheckpointSummary = {
  id: 'cp-1',
  runId: 'run-1',
  sessionId: 'worker-1',
  taskId: 't-1',
  status: 'running',
  iteration: 3,
  createdAt: 1_000,
  updatedAt: 10_000,
};
const at = (now: number, summary: CheckpointSummary = running): string =>
  dashboardRunState(summary, undefined, { now, activeWithinMs: 60_000 }).word;

describe('dashboardRunState', () => {
  it('without a lease, reads a running checkpoint as interrupted once its writes are older than activeWithinMs', () => {
    expect([at(10_000), at(70_000), at(70_001)]).toEqual(['running', 'running', 'interrupted']);
    expect(dashboardRunState(running, undefined, { now: 70_001, activeWithinMs: 60_000 })).toEqual({
      word: 'interrupted',
      text: 'interrupted (resumable)',
      active: false,
    });
  });

  it('with a lease, reads the lease and not the age of the writes', () => {
    const held = { ...running, lease: { owner: 'worker-1', live: true } };
    const lapsed = { ...running, lease: { owner: 'worker-1', live: false } };
    // A run waiting on a slow model writes nothing for minutes, but its worker renews the lease.
    expect(at(10_000_000, held)).toBe('running');
    // A worker killed a second ago: its lease expired, whatever the age of its last write.
    expect(at(10_001, lapsed)).toBe('interrupted');
    expect(dashboardRunState(lapsed, undefined, { now: 10_001, activeWithinMs: 60_000 }).active).toBe(false);
  });

  it('reads a finished checkpoint by its status, lease or not', () => {
    expect(at(0, { ...running, status: 'completed' })).toBe('completed');
    expect(at(0, { ...running, status: 'failed', error: 'boom' })).toBe('failed');
    expect(at(0, { ...running, status: 'abandoned', lease: { owner: 'w', live: false } })).toBe('cancelled');
  });
});
