// Growth cases for the reporters (JSON, audit, CLI): the worst inputs known for each, at about
// n characters. The runner in ../run.ts times each at n = 10 KB, 100 KB and 1 MB.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Clock, ProgressEvent } from '@headway/protocol';
import { AuditReporter, MemoryAuditBus, readAuditLog } from '@headway/reporter-audit';
import { CLIReporter } from '@headway/reporter-cli';
import { JSONReporter } from '@headway/reporter-json';
import { discardStream as sink } from '../../lib/discard-stream.js';

/** One growth case (the runner's shape, declared here so this file stands alone). */
interface AdversarialCase {
  name: string;
  /** The worst known input of about n bytes. */
  make(n: number): unknown;
  run(input: unknown): unknown;
}

const repeat = (piece: string, n: number): string => piece.repeat(Math.max(1, Math.ceil(n / piece.length))).slice(0, n);

/** A terminal that takes everything and keeps nothing. */
const terminal = (isTTY: boolean) => ({ isTTY, columns: 120, rows: 40, write: () => true });

/** Time that moves 100 ms at each read, and timers that never fire: every event redraws at once. */
function steppingClock(): Clock {
  let now = 0;
  return { now: () => (now += 100), setTimeout: () => undefined, clearTimeout: () => undefined };
}

const dir = mkdtempSync(join(tmpdir(), 'headway-adversarial-'));
let files = 0;

export const cases: AdversarialCase[] = [
  // 12 s at 80 KB before (URL-credentials pattern behind the "key" prefilter).
  {
    name: 'JSONReporter.onProgress: "key" and letters',
    make: (n) => `key ${repeat('a', n - 4)}`,
    run: (input) => {
      new JSONReporter({ stream: sink(), maxBufferedBytes: 64 * 1024 * 1024 }).onProgress(1, input as string);
    },
  },
  {
    name: 'JSONReporter.handle: args of secret-ish text',
    make: (n) => ({ type: 'tool.executing', runId: 'r', seq: 1, ts: 1, toolName: 't', args: { env: repeat('DB_PASSWORD="x" eyJ-', n) } }),
    run: (input) => {
      new JSONReporter({ stream: sink(), maxBufferedBytes: 64 * 1024 * 1024 }).handle(input as ProgressEvent);
    },
  },
  // Never finished on 10 MB before.
  {
    name: 'AuditReporter.onProgress: letters',
    make: (n) => repeat('a', n),
    run: (input) => {
      new AuditReporter({ sessionId: 's', taskId: 't', bus: new MemoryAuditBus() }).onProgress(1, input as string);
    },
  },
  {
    name: 'AuditReporter.handle: args of secret-ish text',
    make: (n) => ({ type: 'tool.executing', runId: 'r', seq: 1, ts: 1, toolName: 't', args: { env: repeat('token :password="', n) } }),
    run: (input) => {
      new AuditReporter({ sessionId: 's', taskId: 't', bus: new MemoryAuditBus() }).handle(input as ProgressEvent);
    },
  },
  {
    name: 'readAuditLog: one long line among valid ones',
    make: (n) => {
      const file = join(dir, `log-${String((files += 1))}.jsonl`);
      const good = JSON.stringify({
        eventType: 'agent.progress.start',
        category: 'agent',
        result: 'allow',
        sessionId: 's',
        taskId: 't',
        timestamp: 1,
        detail: { task: 'x' },
      });
      writeFileSync(file, `${good}\n{"detail":"${repeat('a', n)}\n${good}\n`);
      return file;
    },
    run: (input) => readAuditLog(input as string),
  },
  // 222 ms per event for a 1 MB task before: the run is a start and twenty events.
  {
    name: 'CLIReporter live: 20 events under a huge task',
    make: (n) => repeat('T', n),
    run: (input) => {
      const reporter = new CLIReporter({ stream: terminal(true), mode: 'live', env: {}, clock: steppingClock() });
      reporter.onStart(input as string);
      for (let i = 1; i <= 20; i++) reporter.onProgress(i, 'working');
      reporter.onComplete('done');
    },
  },
  {
    name: 'CLIReporter plain: a tool summary of secret-ish text',
    make: (n) => repeat('GITHUB_TOKEN=x sk-', n),
    run: (input) => {
      new CLIReporter({ stream: terminal(false), mode: 'plain', env: {} }).onToolDone('t', input as string);
    },
  },
];
