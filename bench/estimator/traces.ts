// Loads the recorded agent runs (../shared/data/traces, or HEADWAY_TRACES) and generates
// synthetic ones (short, long, stalled, early-exit) with a seeded random source.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';

export type TraceEvent =
  | { kind: 'round'; ts: number }
  | { kind: 'tools'; ts: number }
  | { kind: 'tool.done'; ts: number; name: string; ok: boolean }
  | { kind: 'round.end'; ts: number }
  | { kind: 'plan'; ts: number; total: number; completed: number; inProgress: number };

export interface Trace {
  file: string;
  group: string;
  real: boolean;
  startTs: number;
  endTs: number;
  /** The run's recorded iteration cap, if any. */
  maxIterations: number | undefined;
  roundtrips: number;
  events: TraceEvent[];
  /** The recorded lines as parsed JSON (for generated traces: the same events written in that format). */
  raw: unknown[];
  /** How many plan.updated lines the run has. */
  planUpdates: number;
}

const lineSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('run.started'), ts: z.number(), maxIterations: z.int().positive().optional() }),
  z.object({ type: z.literal('step.started'), ts: z.number(), step: z.int() }),
  z.object({ type: z.literal('step.finished'), ts: z.number(), step: z.int() }),
  z.object({ type: z.literal('tool.executing'), ts: z.number(), toolName: z.string() }),
  z.object({ type: z.literal('tool.completed'), ts: z.number(), toolName: z.string(), ok: z.boolean() }),
  z.object({ type: z.literal('run.finished'), ts: z.number(), outcome: z.string(), roundtrips: z.int().min(0) }),
  z.object({ type: z.literal('plan.updated'), ts: z.number(), total: z.int(), completed: z.int(), inProgress: z.int() }),
]);

/**
 * The cap a run is replayed with: the one its trace recorded, else none. A run told a cap it did
 * not have would be scored on a bar no user of that agent sees (the CLI's `watch` of a stream
 * without `--max-turns` has no cap either).
 */
export function capOf(trace: Trace): number {
  return trace.maxIterations ?? Number.POSITIVE_INFINITY;
}

/**
 * The traces folders: HEADWAY_TRACES (one folder, or several separated by commas), else
 * ../shared/data/traces and ../shared/data/plan-traces next to the repository root.
 */
export function tracesDirs(): string[] {
  const fromEnv = process.env.HEADWAY_TRACES;
  if (fromEnv !== undefined && fromEnv !== '') return fromEnv.split(',').map((d) => resolve(d));
  const data = resolve(import.meta.dirname, '..', '..', '..', 'shared', 'data');
  return [join(data, 'traces'), join(data, 'plan-traces')];
}

export function loadRealTraces(dir: string): Trace[] {
  if (!existsSync(join(dir, 'MANIFEST.tsv'))) throw new Error(`no MANIFEST.tsv in ${dir} (set HEADWAY_TRACES)`);
  const groups = new Map<string, string>();
  for (const row of readFileSync(join(dir, 'MANIFEST.tsv'), 'utf8').trim().split('\n').slice(1)) {
    const [file, group] = row.split('\t');
    if (file !== undefined && group !== undefined) groups.set(file, group);
  }
  const traces: Trace[] = [];
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .sort()) {
    const group = groups.get(file);
    if (group === undefined) throw new Error(`${file}: not in MANIFEST.tsv`);
    const lines = readFileSync(join(dir, file), 'utf8').trim().split('\n');
    let startTs: number | undefined;
    let endTs: number | undefined;
    let maxIterations: number | undefined;
    let roundtrips = 0;
    let open = false;
    let inTools = false;
    const events: TraceEvent[] = [];
    const raw: unknown[] = [];
    let planUpdates = 0;
    for (const [i, text] of lines.entries()) {
      const json: unknown = JSON.parse(text);
      raw.push(json);
      const parsed = lineSchema.safeParse(json);
      if (!parsed.success) throw new Error(`${file}:${i + 1}: ${parsed.error.message}`);
      const e = parsed.data;
      switch (e.type) {
        case 'run.started':
          startTs = e.ts;
          maxIterations = e.maxIterations;
          break;
        case 'step.started':
          events.push({ kind: 'round', ts: e.ts });
          open = true;
          inTools = false;
          break;
        case 'tool.executing':
          if (open && !inTools) events.push({ kind: 'tools', ts: e.ts });
          inTools = true;
          break;
        case 'tool.completed':
          // Recordings without tool.executing (OpenHands): the tools phase starts at completion.
          if (open && !inTools) events.push({ kind: 'tools', ts: e.ts });
          inTools = true;
          events.push({ kind: 'tool.done', ts: e.ts, name: e.toolName, ok: e.ok });
          break;
        case 'step.finished':
          if (open) events.push({ kind: 'round.end', ts: e.ts });
          open = false;
          break;
        case 'run.finished':
          endTs = e.ts;
          roundtrips = e.roundtrips;
          break;
        case 'plan.updated':
          planUpdates++;
          events.push({ kind: 'plan', ts: e.ts, total: e.total, completed: e.completed, inProgress: e.inProgress });
          break;
      }
    }
    if (startTs === undefined || endTs === undefined) throw new Error(`${file}: missing run.started or run.finished`);
    traces.push({ file, group, real: true, startTs, endTs, maxIterations, roundtrips, events, raw, planUpdates });
  }
  return traces;
}

/** mulberry32: small, seeded, good enough for workload generation. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function logNormal(rand: () => number, medianMs: number, sigma: number): number {
  const u = Math.max(1e-9, rand());
  const v = rand();
  const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  return medianMs * Math.exp(sigma * z);
}

interface GenSpec {
  group: string;
  runs: number;
  cap: number;
  rounds: (rand: () => number) => number;
  /** Multiplies one iteration's duration (a stall), by iteration index. */
  stall?: (rand: () => number, rounds: number) => { at: number; factor: number };
}

const SPECS: GenSpec[] = [
  { group: 'gen-short', runs: 12, cap: 30, rounds: (r) => 2 + Math.floor(r() * 5) },
  { group: 'gen-long', runs: 12, cap: 200, rounds: (r) => 60 + Math.floor(r() * 100) },
  {
    group: 'gen-stalled',
    runs: 12,
    cap: 50,
    rounds: (r) => 10 + Math.floor(r() * 16),
    stall: (r, n) => ({ at: Math.floor(n * (0.3 + 0.4 * r())), factor: 8 + r() * 12 }),
  },
  // Runs that find their answer almost at once although the cap leaves room for many more.
  { group: 'gen-early-exit', runs: 12, cap: 50, rounds: (r) => 1 + Math.floor(r() * 3) },
];

export function generateTraces(seed = 7): Trace[] {
  const rand = rng(seed);
  const traces: Trace[] = [];
  for (const spec of SPECS) {
    for (let k = 0; k < spec.runs; k++) {
      const n = spec.rounds(rand);
      const stall = spec.stall?.(rand, n);
      const events: TraceEvent[] = [];
      const startTs = 1_700_000_000_000 + k * 10_000_000;
      let t = startTs + logNormal(rand, 1500, 0.5);
      for (let i = 0; i < n; i++) {
        const factor = stall?.at === i ? stall.factor : 1;
        events.push({ kind: 'round', ts: t });
        t += logNormal(rand, 4000, 0.6) * factor;
        events.push({ kind: 'tools', ts: t });
        const calls = 1 + Math.floor(rand() * 3);
        for (let c = 0; c < calls; c++) {
          t += logNormal(rand, 1200, 0.9);
          events.push({ kind: 'tool.done', ts: t, name: 'bash', ok: rand() > 0.1 });
        }
        events.push({ kind: 'round.end', ts: t });
      }
      t += logNormal(rand, 800, 0.4);
      const raw = [
        { type: 'run.started', ts: startTs, maxIterations: spec.cap },
        ...events.map(toLine),
        { type: 'run.finished', ts: t, outcome: 'completed' },
      ];
      const trace = {
        file: `${spec.group}-${k}`,
        group: spec.group,
        real: false,
        startTs,
        endTs: t,
        maxIterations: spec.cap,
        roundtrips: n,
        events,
      };
      traces.push({ ...trace, raw, planUpdates: 0 });
    }
  }
  return traces;
}

/** A generated event as a line of the recorded trace format. */
function toLine(e: TraceEvent): unknown {
  switch (e.kind) {
    case 'round':
      return { type: 'step.started', ts: e.ts };
    case 'tools':
      return { type: 'tool.executing', ts: e.ts, toolName: 'bash' };
    case 'tool.done':
      return { type: 'tool.completed', ts: e.ts, toolName: e.name, ok: e.ok };
    case 'round.end':
      return { type: 'step.finished', ts: e.ts };
    case 'plan':
      return { type: 'plan.updated', ts: e.ts, total: e.total, completed: e.completed, inProgress: e.inProgress };
  }
}
