// Kill points inside a SQL store's checkpoint writes, shared by the SQLite and Postgres crash
// suites: a store's crash module calls `crash('cpw:msg:<seq>')` after inserting the seq-th
// message and `crash('cpw:call:<toolCallId>:<status>')` after writing a tool call's status,
// inside the transaction and before COMMIT.
import { CRASH_ROUNDS } from './crash-agent.js';

/**
 * {@link CRASH_KILL_POINTS} with a SQL store's own in between, in the order a run reaches them.
 * Within round r: provider:r, the assistant message (4r-2), c1's result (4r-1), c2's result
 * (4r), the round (4r+1); `cpw:msg:0` is inside the transaction that creates the checkpoint and
 * the last one the final answer, written as the checkpoint completes.
 */
export const CHECKPOINT_WRITE_KILL_POINTS: readonly string[] = [
  'cpw:msg:0',
  'provider:1',
  'cpw:msg:2',
  'tool-start:r1c1',
  'after-effect:r1c1',
  'cpw:call:r1c2:started',
  'cpw:msg:4',
  'round-saved:1',
  'cpw:call:r2c1:started',
  'after-effect:r2c2',
  'cpw:msg:9',
  'tool-start:r3c1',
  'cpw:msg:12',
  'round-saved:3',
  'provider:4',
  'tool-start:r4c2',
  'cpw:msg:17',
  'after-effect:r5c1',
  'cpw:call:r5c2:finished',
  'round-saved:5',
  'after-effect:r6c2',
  'provider:7',
  `cpw:msg:${4 * CRASH_ROUNDS + 2}`,
];

/** For a `cpw:` kill point: the tool call whose side effect happened but whose result was not committed. */
export function checkpointWriteInFlightCall(point: string): string | undefined {
  const call = /^cpw:call:(r\dc\d):finished$/.exec(point);
  if (call !== null) return call[1];
  const msg = /^cpw:msg:(\d+)$/.exec(point);
  if (msg === null) return undefined;
  const seq = Number(msg[1]);
  const r = Math.floor(seq / 4);
  if (seq % 4 === 3) return `r${r + 1}c1`;
  if (seq % 4 === 0 && r >= 1 && r <= CRASH_ROUNDS) return `r${r}c2`;
  return undefined;
}
