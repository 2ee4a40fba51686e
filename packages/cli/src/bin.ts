#!/usr/bin/env node
import { processIo } from './io/cli-io.js';
import { main } from './main.js';

// Ctrl-C ends a follow or a replay cleanly (the view's last frame stays); a second one kills.
const controller = new AbortController();
process.once('SIGINT', () => {
  controller.abort();
});
// A closed pipe on stdout (`headway convert | head`) is the reader's choice, not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
});

process.exitCode = await main(process.argv.slice(2), processIo(controller.signal));
