import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryCheckpointStore } from '../checkpoint/memory-checkpoint-store.js';
import { runStateFromCheckpoint } from '../checkpoint/run-state-codec.js';
import { AgentRuntime } from '../loop/agent-runtime.js';
import { ScriptedProvider } from '../provider/scripted-provider.js';
import { CRASH_ROUNDS, CRASH_TASK, crashScript, crashTool, type SideEffect } from './crash-agent.js';
import type { CrashStoreModule } from './crash-store.js';

/**
 * Kill points every store goes through, in the order a run reaches them: in model calls, in
 * tools (before and after their side effect) and between rounds. `after-effect:…` points leave
 * a side effect whose result was not saved: that call runs again on resume, with the same key.
 */
export const CRASH_KILL_POINTS: readonly string[] = [
  'provider:1',
  'tool-start:r1c1',
  'after-effect:r1c1',
  'round-saved:1',
  'after-effect:r2c2',
  'tool-start:r3c1',
  'round-saved:3',
  'provider:4',
  'tool-start:r4c2',
  'after-effect:r5c1',
  'round-saved:5',
  'after-effect:r6c2',
  'provider:7',
];

/** Options of {@link crashRecoverySuite}. */
export interface CrashRecoverySuiteOptions {
  /** Absolute path of the store's crash module (TypeScript or JavaScript), which exports `openCrashStore`. */
  storeModule: string;
  /** Where the store keeps its data, given a fresh temporary directory (a file path, a database URL…). */
  location: (dir: string) => string;
  /**
   * Kill points in the order the run reaches them (default {@link CRASH_KILL_POINTS}); a store
   * adds its own (labels its module passes to `crash`) in between.
   */
  killPoints?: readonly string[];
  /** For a store's own kill point: the tool call whose side effect happened but whose result was not saved. */
  inFlightCall?: (point: string) => string | undefined;
  /** Packages left out of the child's bundle (native modules), resolved from the store module. */
  external?: readonly string[];
  /** Test timeout (default 180 s). */
  timeoutMs?: number;
}

interface ChildOutcome {
  killedAt?: string;
  result?: { status: string; resumed: boolean; pending: number };
  internal: string[];
}

function childEntry(): string {
  for (const name of ['crash-child.js', 'crash-child.ts']) {
    const path = fileURLToPath(new URL(`./${name}`, import.meta.url));
    if (existsSync(path)) return path;
  }
  throw new Error('crashRecoverySuite: crash-child not found beside @headway/runtime/testing/conformance');
}

async function bundleChild(storeModule: string, external: readonly string[], outfile: string): Promise<void> {
  const require = createRequire(storeModule);
  const native: Plugin = {
    name: 'headway-native-external',
    setup(b) {
      for (const name of external) {
        const filter = new RegExp(`^${name.replace(/[$()*+.?[\\\]^{|}]/g, '\\$&')}$`);
        // A native module stays where it is installed.
        b.onResolve({ filter }, () => ({ path: require.resolve(name), external: true }));
      }
    },
  };
  await build({
    stdin: {
      contents: `import { runCrashChild } from ${JSON.stringify(childEntry())};\nimport * as store from ${JSON.stringify(storeModule)};\nawait runCrashChild(store);\n`,
      resolveDir: dirname(storeModule),
      loader: 'ts',
    },
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'error',
    plugins: [native],
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  });
}

function runChild(bundle: string, env: Record<string, string>): Promise<ChildOutcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bundle], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    const outcome: ChildOutcome = { internal: [] };
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const kill = /^KILLME (\S+)$/m.exec(out);
      if (kill !== null && outcome.killedAt === undefined) {
        outcome.killedAt = kill[1] ?? '';
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
      if (result?.[1] !== undefined) outcome.result = JSON.parse(result[1]) as NonNullable<ChildOutcome['result']>;
      if (outcome.killedAt === undefined && (code !== 0 || result === null)) {
        reject(new Error(`child exited with ${String(code ?? signal)}:\n${out}\n${err}`));
        return;
      }
      resolve(outcome);
    });
  });
}

function genericInFlight(point: string): string | undefined {
  return /^after-effect:(r\dc\d)$/.exec(point)?.[1];
}

/**
 * The crash suite: runs a six-round agent on the store in a child process and SIGKILLs it at
 * every kill point in turn (each child resumes the run the last one left), then checks that the
 * run finished, that no side effect ran twice except a call caught between its effect and its
 * saved result (and then with one idempotency key), that every checkpoint reads back after each
 * kill, and that the conversation is the one an uninterrupted run has.
 *
 * @example
 * ```ts
 * crashRecoverySuite('SqliteCheckpointStore', {
 *   storeModule: fileURLToPath(new URL('./crash-store.test-util.ts', import.meta.url)),
 *   location: (dir) => join(dir, 'agent.db'),
 *   external: ['better-sqlite3'],
 * });
 * ```
 */
export function crashRecoverySuite(name: string, options: CrashRecoverySuiteOptions): void {
  const killPoints = options.killPoints ?? CRASH_KILL_POINTS;
  const work = mkdtempSync(join(tmpdir(), 'headway-crash-'));
  const bundle = join(work, 'crash-child.mjs');
  const location = options.location(work);
  const openStore = async (): Promise<Awaited<ReturnType<CrashStoreModule['openCrashStore']>>> => {
    const module = (await import(pathToFileURL(options.storeModule).href)) as CrashStoreModule;
    return module.openCrashStore(location, () => undefined);
  };
  beforeAll(async () => {
    await bundleChild(options.storeModule, options.external ?? [], bundle);
  }, 60_000);
  afterAll(() => {
    rmSync(work, { recursive: true, force: true });
  });

  describe(`${name} (crash recovery, SIGKILL)`, () => {
    it(
      `survives SIGKILL at ${killPoints.length} points: the run finishes, no side effect repeats except in-flight calls`,
      async () => {
        const effectsFile = join(work, 'effects.jsonl');
        writeFileSync(effectsFile, '');
        const env = { HEADWAY_CRASH_LOCATION: location, HEADWAY_CRASH_EFFECTS: effectsFile };
        const kills: string[] = [];
        const internal: string[] = [];
        for (const point of killPoints) {
          const outcome = await runChild(bundle, { ...env, HEADWAY_CRASH_AT: point });
          internal.push(...outcome.internal);
          if (outcome.killedAt !== undefined) kills.push(outcome.killedAt);
          // Every checkpoint reads back, and every unfinished one rebuilds a run state.
          const { store, close } = await openStore();
          try {
            for (const summary of await store.list()) {
              const cp = await store.load(summary.id);
              expect(cp, summary.id).toBeDefined();
              if (cp?.status === 'running') runStateFromCheckpoint(cp);
            }
          } finally {
            await close();
          }
        }
        const last = await runChild(bundle, { ...env, HEADWAY_CRASH_AT: '' });
        internal.push(...last.internal);
        expect(kills).toEqual(killPoints);
        expect(last.result).toEqual({ status: 'completed', resumed: true, pending: 1 });
        expect(internal).toEqual([]);

        const effects = readFileSync(effectsFile, 'utf8')
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as SideEffect);
        const byCall = new Map<string, SideEffect[]>();
        for (const e of effects) byCall.set(e.call, [...(byCall.get(e.call) ?? []), e]);
        expect([...byCall.keys()].sort()).toEqual(
          Array.from({ length: CRASH_ROUNDS }, (_, i) => [`r${i + 1}c1`, `r${i + 1}c2`])
            .flat()
            .sort(),
        );
        const inFlight = kills.flatMap((k) => genericInFlight(k) ?? options.inFlightCall?.(k) ?? []);
        for (const [call, list] of byCall) {
          // Exactly once, plus one repeat when a kill caught it between its effect and its saved result.
          expect(list.length, call).toBe(inFlight.includes(call) ? 2 : 1);
          expect(new Set(list.map((e) => e.key)).size, call).toBe(1);
        }

        // The conversation is the one an uninterrupted run has.
        const reference = new MemoryCheckpointStore();
        const clean = await new AgentRuntime(
          { provider: 'scripted', maxIterations: 20 },
          { provider: new ScriptedProvider(crashScript), tools: [crashTool(() => undefined)], checkpointStore: reference },
        ).run(CRASH_TASK, { sessionId: 's1' });
        expect(clean.status).toBe('completed');
        const { store, close } = await openStore();
        try {
          const completed = (await store.list()).filter((c) => c.status === 'completed');
          expect(completed).toHaveLength(1);
          const done = await store.load(completed[0]?.id ?? '');
          expect(done?.messages).toEqual(reference.load(reference.list()[0]?.id ?? '')?.messages);
        } finally {
          await close();
        }
      },
      options.timeoutMs ?? 180_000,
    );
  });
}
