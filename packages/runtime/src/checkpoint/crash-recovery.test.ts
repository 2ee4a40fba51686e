import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentRuntime } from '../loop/agent-runtime.js';
import { ScriptedProvider } from '../provider/scripted-provider.js';
import { CRASH_ROUNDS, CRASH_TASK, crashScript, crashTool, type SideEffect } from './crash-agent.test-util.js';
import { MemoryCheckpointStore } from './memory-checkpoint-store.js';
import { runStateFromCheckpoint } from './run-state-codec.js';
import { SqliteCheckpointStore } from './sqlite-checkpoint-store.js';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const work = mkdtempSync(join(tmpdir(), 'headway-crash-'));
// The child is bundled once so each of the ~27 processes starts in a fraction of a second.
const childBundle = join(work, 'crash-agent.mjs');
beforeAll(async () => {
  await build({
    entryPoints: [join(here, 'crash-agent.test-util.ts')],
    outfile: childBundle,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'error',
    plugins: [
      {
        name: 'native-sqlite',
        setup(b) {
          // The native module stays where it is installed.
          b.onResolve({ filter: /^better-sqlite3$/ }, () => ({ path: require.resolve('better-sqlite3'), external: true }));
        },
      },
    ],
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  });
});

/**
 * Kill points in the order the run reaches them: in model calls, in tools (before and after
 * their side effect), inside checkpoint transactions, and between rounds. Within round r:
 * provider:r, the write of the assistant message with r{r}c1 started (cpw:msg:4r-2),
 * tool-start/after-effect of c1, the write of its result (cpw:msg:4r-1, then
 * cpw:call:…:finished), c2 likewise (cpw:msg:4r), the round's write (cpw:msg:4r+1), round-saved:r.
 */
const KILL_POINTS = [
  'cpw:msg:0', // inside the transaction that creates the checkpoint
  'provider:1',
  'cpw:msg:2',
  'tool-start:r1c1',
  'after-effect:r1c1', // the side effect happened, its result is not saved
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
  'provider:7', // the final answer is being produced
  `cpw:msg:${4 * CRASH_ROUNDS + 2}`, // the final answer, written as the checkpoint completes
];

/** The tool call whose side effect may have happened without its result being saved, for a kill point. */
function inFlightCall(point: string): string | undefined {
  const direct = /^(?:after-effect|cpw:call):(r\dc\d)(?::finished)?$/.exec(point);
  if (direct !== null && (point.startsWith('after-effect') || point.endsWith(':finished'))) return direct[1];
  const msg = /^cpw:msg:(\d+)$/.exec(point);
  if (msg === null) return undefined;
  const seq = Number(msg[1]);
  const r = Math.floor(seq / 4);
  if (seq % 4 === 3) return `r${r + 1}c1`;
  if (seq % 4 === 0 && r >= 1 && r <= CRASH_ROUNDS) return `r${r}c2`;
  return undefined;
}

interface ChildOutcome {
  killedAt?: string;
  result?: { status: string; resumed: boolean; pending: number };
  internal: string[];
}

function runChild(dir: string, killAt: string | undefined): Promise<ChildOutcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [childBundle], {
      env: {
        ...process.env,
        HEADWAY_CRASH_CHILD: '1',
        HEADWAY_CRASH_DB: join(dir, 'agent.db'),
        HEADWAY_CRASH_EFFECTS: join(dir, 'effects.jsonl'),
        HEADWAY_CRASH_AT: killAt ?? '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const outcome: ChildOutcome = { internal: [] };
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const kill = /^KILLME (\S+)$/m.exec(out);
      if (kill !== null && outcome.killedAt === undefined) {
        outcome.killedAt = kill[1]!;
        child.kill('SIGKILL');
      }
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      err += chunk;
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      outcome.internal = err.split('\n').filter((l) => l.startsWith('INTERNAL'));
      const result = /^RESULT (.+)$/m.exec(out);
      if (result !== null) outcome.result = JSON.parse(result[1]!) as NonNullable<ChildOutcome['result']>;
      if (outcome.killedAt === undefined && (code !== 0 || result === null)) {
        reject(new Error(`child exited with ${String(code ?? signal)}:\n${out}\n${err}`));
        return;
      }
      resolve(outcome);
    });
  });
}

/** Every checkpoint in the file reads back, and every unfinished one rebuilds a run state. */
function assertReadable(path: string): void {
  const store = new SqliteCheckpointStore(path);
  try {
    for (const summary of store.list()) {
      const cp = store.load(summary.id)!;
      if (cp.status === 'running') runStateFromCheckpoint(cp);
    }
  } finally {
    store.close();
  }
}

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

describe('crash recovery, for real', () => {
  it(`survives SIGKILL at ${KILL_POINTS.length} points: every run finishes, no side effect repeats except in-flight calls`, async () => {
    const dir = work;
    writeFileSync(join(dir, 'effects.jsonl'), '');
    const kills: string[] = [];
    const internal: string[] = [];
    for (const point of KILL_POINTS) {
      const outcome = await runChild(dir, point);
      internal.push(...outcome.internal);
      if (outcome.killedAt !== undefined) kills.push(outcome.killedAt);
      assertReadable(join(dir, 'agent.db'));
    }
    const last = await runChild(dir, undefined);
    internal.push(...last.internal);
    expect(kills).toEqual(KILL_POINTS);
    expect(last.result).toEqual({ status: 'completed', resumed: true, pending: 1 });
    expect(internal).toEqual([]);

    // Each side effect once; a call that was in flight at a kill at most twice, with one key.
    const effects = readFileSync(join(dir, 'effects.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as SideEffect);
    const byCall = new Map<string, SideEffect[]>();
    for (const e of effects) byCall.set(e.call, [...(byCall.get(e.call) ?? []), e]);
    expect([...byCall.keys()].sort()).toEqual(Array.from({ length: CRASH_ROUNDS }, (_, i) => [`r${i + 1}c1`, `r${i + 1}c2`]).flat().sort());
    const inFlight = kills.flatMap((k) => inFlightCall(k) ?? []);
    expect(inFlight.sort()).toEqual(['r1c1', 'r1c2', 'r2c2', 'r3c2', 'r5c1', 'r5c2', 'r6c2']);
    for (const [call, list] of byCall) {
      // Exactly once, plus one repeat when a kill caught it between its effect and its saved result.
      expect(list.length, call).toBe(inFlight.includes(call) ? 2 : 1);
      expect(new Set(list.map((e) => e.key)).size, call).toBe(1);
    }
    expect(effects.length).toBeGreaterThan(2 * CRASH_ROUNDS);

    // The conversation is the one an uninterrupted run has.
    const reference = new MemoryCheckpointStore();
    const clean = await new AgentRuntime(
      { provider: 'scripted', maxIterations: 20 },
      { provider: new ScriptedProvider(crashScript), tools: [crashTool(() => undefined)], checkpointStore: reference },
    ).run(CRASH_TASK, { sessionId: 's1' });
    expect(clean.status).toBe('completed');
    const store = new SqliteCheckpointStore(join(dir, 'agent.db'));
    const finished = store.list();
    const completed = finished.filter((c) => c.status === 'completed');
    expect(completed).toHaveLength(1);
    expect(store.load(completed[0]!.id)!.messages).toEqual(reference.load(reference.list()[0]!.id)!.messages);
    store.close();
  }, 120_000);
});
