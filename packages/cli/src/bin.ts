#!/usr/bin/env node
import { createProcessIo } from './io/cli-io.js';
import { main } from './main.js';

// Ctrl-C ends a follow, a replay or a read of stdin cleanly (the view's last frame stays, exit 130);
// a second one exits at once.
const controller = new AbortController();
process.once('SIGINT', () => {
  controller.abort();
  process.stdin.destroy();
  process.once('SIGINT', () => process.exit(130));
});
// A closed pipe on stdout (`headway convert | head`) is the reader's choice, not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
});

process.exitCode = await main(process.argv.slice(2), createProcessIo(controller.signal));
