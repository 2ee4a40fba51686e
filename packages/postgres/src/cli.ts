#!/usr/bin/env node
// `headway-postgres migrate [--url URL]`: runs the stores' migrations once, e.g. at deploy time.
import { runCli } from './migrate-command.js';

process.exitCode = await runCli(
  process.argv.slice(2),
  process.env,
  (line) => {
    process.stdout.write(`${line}\n`);
  },
  (line) => {
    process.stderr.write(`${line}\n`);
  },
);
