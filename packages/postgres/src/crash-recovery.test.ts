import { fileURLToPath } from 'node:url';
import { CRASH_KILL_POINTS, crashRecoverySuite } from '@headway/runtime/testing';
import { usePostgres } from './testing/postgres-fixture.test-util.js';

const ROUNDS = 6;

/**
 * The generic kill points with the store's own in between: inside the transactions that write
 * a message (`cpw:msg:n`, the n-th message) and a tool call's status, after the row went to the
 * server and before COMMIT. Within round r: provider:r, the assistant message (4r-2), c1's result
 * (4r-1), c2's result (4r), the round (4r+1). The same points as the SQLite store's.
 */
const KILL_POINTS = [
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
  `cpw:msg:${4 * ROUNDS + 2}`,
];

/** The tool call whose side effect happened but whose result was not committed, for a store kill point. */
function inFlightCall(point: string): string | undefined {
  const call = /^cpw:call:(r\dc\d):finished$/.exec(point);
  if (call !== null) return call[1];
  const msg = /^cpw:msg:(\d+)$/.exec(point);
  if (msg === null) return undefined;
  const seq = Number(msg[1]);
  const r = Math.floor(seq / 4);
  if (seq % 4 === 3) return `r${r + 1}c1`;
  if (seq % 4 === 0 && r >= 1 && r <= ROUNDS) return `r${r}c2`;
  return undefined;
}

if (CRASH_KILL_POINTS.some((p) => !KILL_POINTS.includes(p))) throw new Error('crash-recovery.test: a generic kill point is missing');

const server = await usePostgres();
if (server !== undefined) {
  const url = await server.createDatabase('crash');
  crashRecoverySuite('PostgresCheckpointStore', {
    storeModule: fileURLToPath(new URL('./crash-store.test-util.ts', import.meta.url)),
    location: () => url,
    killPoints: KILL_POINTS,
    inFlightCall,
    external: ['pg'],
  });
}
