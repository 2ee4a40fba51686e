import { describe, expect, it } from 'vitest';
import { CHECKPOINT_WRITE_KILL_POINTS, checkpointWriteInFlightCall } from './checkpoint-write-kill-points.js';
import { CRASH_KILL_POINTS } from './crash-recovery-suite.js';

describe('CHECKPOINT_WRITE_KILL_POINTS', () => {
  it('holds every generic kill point, in order', () => {
    expect(CHECKPOINT_WRITE_KILL_POINTS.filter((p) => !p.startsWith('cpw:'))).toEqual(CRASH_KILL_POINTS);
  });

  it('names the call in flight at a message or tool-call write', () => {
    expect(
      ['cpw:msg:2', 'cpw:msg:4', 'cpw:msg:9', 'cpw:call:r5c2:finished', 'cpw:call:r1c2:started', 'provider:1'].map(
        checkpointWriteInFlightCall,
      ),
    ).toEqual([undefined, 'r1c2', undefined, 'r5c2', undefined, undefined]);
  });
});
