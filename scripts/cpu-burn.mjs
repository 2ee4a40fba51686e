#!/usr/bin/env node
// Keeps CPU cores busy, to run the test suite on a loaded machine and catch tests that only
// pass when they get the CPU in time:
//   node scripts/cpu-burn.mjs [cores = all] [max seconds = 1800] & npm test -- --force; kill %1
// Each core gets a worker thread that spins; all stop on SIGINT/SIGTERM or after the max
// lifetime, so a forgotten burner does not hold the machine for ever.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

const cores = Number(process.argv[2] ?? availableParallelism());
const maxSeconds = Number(process.argv[3] ?? 1800);
if (!Number.isInteger(cores) || cores < 1) throw new Error(`cores: expected a whole number ≥ 1, got ${process.argv[2]}`);
if (!Number.isFinite(maxSeconds) || maxSeconds <= 0) throw new Error(`max seconds: expected a number > 0, got ${process.argv[3]}`);

const spin = `
  let x = 0;
  for (;;) for (let i = 0; i < 1e7; i++) x = (x * 31 + i) | 0;
`;
const workers = Array.from({ length: cores }, () => new Worker(spin, { eval: true }));
process.stderr.write(`cpu-burn: ${cores} core(s) busy for at most ${maxSeconds}s (pid ${process.pid})\n`);

function stop(why) {
  process.stderr.write(`cpu-burn: stopping (${why})\n`);
  for (const w of workers) void w.terminate();
  process.exit(0);
}
setTimeout(() => {
  stop('max lifetime');
}, maxSeconds * 1000);
process.on('SIGINT', () => {
  stop('SIGINT');
});
process.on('SIGTERM', () => {
  stop('SIGTERM');
});
