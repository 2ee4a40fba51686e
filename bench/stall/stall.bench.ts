// Stall detection on real runs: which recorded runs the defaults flag and why, whether wind-down
// would have stopped any run that finished successfully, how fast a call spliced in K times is
// caught, and what the detector costs per iteration next to the agent loop, in one process.
// Run: pnpm -F @headway/bench bench:stall
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { EventStream } from '@headway/cli';
import { DEFAULT_STALL_THRESHOLDS, createStallDetector, type StallChange } from '@headway/estimator';
import type { ProgressEvent } from '@headway/protocol';
import { AgentRuntime, defineTool } from '@headway/runtime';
import { ScriptedProvider, type ScriptedStep } from '@headway/runtime/testing';
import { NullReporter } from '@headway/protocol';
import { Bench } from 'tinybench';
import { z } from 'zod';
import { median } from '../lib/compare.js';
import { loadRealTraces, tracesDirs } from '../estimator/traces.js';

interface Call {
  name: string;
  args: unknown;
  result: unknown;
  ok: boolean;
}
interface Iteration {
  calls: Call[];
  text?: string;
  /** Plan items done after this iteration, when the run keeps a plan. */
  planDone?: number;
}
interface Run {
  file: string;
  outcome: string;
  iterations: Iteration[];
  /** True when the recording has each call's arguments and result (the CLI fixtures). */
  detailed: boolean;
}

/** The recorded traces: tool names and ok only; `view` decides what stands in for the arguments and result. */
function tracesAsRuns(): Run[] {
  const runs: Run[] = [];
  for (const dir of tracesDirs()) {
    for (const trace of loadRealTraces(dir)) {
      const iterations: Iteration[] = [];
      let outcome = 'unknown';
      let current: Iteration = { calls: [] };
      // Calls started and not yet completed; some recordings (OpenHands) have completions only.
      let open: Call[] = [];
      for (const line of trace.raw as Record<string, unknown>[]) {
        switch (line.type) {
          case 'step.started':
            current = { calls: [] };
            iterations.push(current);
            open = [];
            break;
          case 'tool.executing': {
            const call: Call = { name: String(line.toolName), args: undefined, result: undefined, ok: true };
            current.calls.push(call);
            open.push(call);
            break;
          }
          case 'tool.completed': {
            const at = open.findIndex((c) => c.name === line.toolName);
            const call = at >= 0 ? open.splice(at, 1)[0] : undefined;
            if (call !== undefined) call.ok = line.ok === true;
            else current.calls.push({ name: String(line.toolName), args: undefined, result: undefined, ok: line.ok === true });
            break;
          }
          case 'plan.updated':
            current.planDone = Number(line.completed);
            break;
          case 'run.finished':
            outcome = String(line.outcome);
            break;
        }
      }
      runs.push({ file: trace.file, outcome, iterations, detailed: false });
    }
  }
  return runs;
}

/** The CLI's fixtures (real Claude Code, Codex and gemini-cli streams), through its converters: arguments and result previews included. */
function fixtureRuns(): Run[] {
  const dir = resolve(import.meta.dirname, '..', '..', 'packages', 'cli', 'fixtures');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .sort()
    .map((file) => {
      const stream = new EventStream();
      const events: ProgressEvent[] = [];
      for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) if (line.trim() !== '') events.push(...stream.push(line));
      events.push(...stream.end());
      const iterations: Iteration[] = [];
      let current: Iteration | undefined;
      const byId = new Map<string, Call>();
      let outcome = 'unknown';
      for (const e of events) {
        if (e.type === 'step.started' || (current === undefined && e.type === 'tool.executing')) {
          current = { calls: [] };
          iterations.push(current);
        }
        if (e.type === 'tool.executing' && current !== undefined) {
          const call: Call = { name: e.toolName, args: e.args, result: undefined, ok: true };
          current.calls.push(call);
          if (e.toolCallId !== undefined) byId.set(e.toolCallId, call);
        } else if (e.type === 'tool.completed') {
          const call = e.toolCallId === undefined ? undefined : byId.get(e.toolCallId);
          if (call !== undefined) {
            call.result = e.preview;
            call.ok = e.ok;
          }
        } else if (e.type === 'plan.updated' && current !== undefined) {
          current.planDone = e.items.filter((i) => i.status === 'completed').length;
        } else if (e.type === 'run.finished') outcome = e.outcome;
        else if (e.type === 'run.error') outcome = 'error';
      }
      return { file, outcome, iterations, detailed: true };
    });
}

type View = 'recorded' | 'name-only';

/**
 * Replays a run through a detector. `recorded`: a call whose arguments and result the recording
 * lacks counts as its own distinct call (what the detector would see of real, varied arguments);
 * `name-only`: every call of a tool counts as the same call with the same result (the worst case:
 * an upper bound on what the defaults could flag).
 */
function replay(run: Run, view: View): { changes: (StallChange & { at: number })[] } {
  const detector = createStallDetector();
  const changes: (StallChange & { at: number })[] = [];
  let n = 0;
  run.iterations.forEach((it, index) => {
    for (const call of it.calls) {
      n += 1;
      const distinct = !run.detailed && view === 'recorded';
      const args = distinct ? (call.args ?? `#${n}`) : run.detailed ? call.args : {};
      const result = distinct ? (call.result ?? `#${n}`) : run.detailed ? call.result : call.ok;
      const change = detector.toolCall({ iteration: index, id: `c${n}`, name: call.name, args, result, ok: call.ok });
      if (change !== undefined) changes.push({ ...change, at: index });
    }
    if (it.planDone !== undefined) detector.plan(it.planDone);
    if (it.text !== undefined) {
      const change = detector.text(index, it.text);
      if (change !== undefined) changes.push({ ...change, at: index });
    }
    const end = detector.iterationFinished(index);
    if (end !== undefined) changes.push({ ...end, at: index });
  });
  return { changes };
}

const runs = [...tracesAsRuns(), ...fixtureRuns()];
const t = DEFAULT_STALL_THRESHOLDS;
console.log(
  `\nStall detection at the defaults (repeatedCall ${t.repeatedCall}, repeatedFailure ${t.repeatedFailure}, pingPongCycles ${t.pingPongCycles}, noProgressIterations ${t.noProgressIterations}, repeatedText ${t.repeatedText}) on ${runs.length} recorded runs`,
);
for (const view of ['recorded', 'name-only'] as const) {
  console.log(
    `\nView: ${view}${view === 'name-only' ? ' (worst case: every call of a tool counts as the same call with the same result)' : ''}`,
  );
  console.log('| run | outcome | iterations | flagged | first stall (iteration) |');
  console.log('|---|---|---:|---|---|');
  let flagged = 0;
  let flaggedCompleted = 0;
  let completed = 0;
  const byKind = new Map<string, number>();
  for (const run of runs) {
    if (run.outcome === 'completed') completed += 1;
    const first = replay(run, view).changes.find((c) => c.type === 'stall.detected');
    if (first === undefined) continue;
    flagged += 1;
    if (run.outcome === 'completed') flaggedCompleted += 1;
    byKind.set(first.kind, (byKind.get(first.kind) ?? 0) + 1);
    console.log(
      `| ${run.file} | ${run.outcome} | ${run.iterations.length} | ${first.kind}: ${first.evidence.subject} ×${first.evidence.repeats} | ${first.at} |`,
    );
  }
  console.log(
    `\n${view}: ${flagged} of ${runs.length} runs flagged (${[...byKind].map(([k, v]) => `${k} ${v}`).join(', ') || 'none'}); ` +
      `wind-down at the defaults would stop ${flaggedCompleted} of the ${completed} runs that finished successfully`,
  );
}

// Splicing: copies of one real call (and its result) inserted K times, one per iteration, right
// after the original; detected when a stall is reported within K+1 iterations of the first copy.
let seed = 42;
const random = (): number => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};
console.log('\nSplice test: one real call repeated K more times (recorded view), 10 positions per run');
console.log('| K | cases | detected within K+1 iterations | % |');
console.log('|---:|---:|---:|---:|');
for (const k of [4, 5, 6, 8, 10]) {
  let cases = 0;
  let hits = 0;
  for (const run of runs) {
    const withCalls = run.iterations.map((it, i) => [it, i] as const).filter(([it]) => it.calls.length > 0);
    if (withCalls.length === 0) continue;
    for (let p = 0; p < 10; p++) {
      const [it, at] = withCalls[Math.floor(random() * withCalls.length)]!;
      const call = it.calls[Math.floor(random() * it.calls.length)]!;
      // The copy keeps the original's identity: same arguments, same result.
      const fixed: Call = run.detailed ? call : { ...call, args: `spliced-${at}`, result: `spliced-${at}` };
      const original: Iteration = { ...it, calls: it.calls.map((c) => (c === call ? fixed : c)) };
      const copies: Iteration[] = Array.from({ length: k }, () => ({ calls: [fixed] }));
      const spliced: Run = { ...run, iterations: [...run.iterations.slice(0, at), original, ...copies, ...run.iterations.slice(at + 1)] };
      const first = replay(spliced, 'recorded').changes.find((c) => c.type === 'stall.detected' && c.at > at && c.at <= at + k + 1);
      cases += 1;
      if (first !== undefined) hits += 1;
    }
  }
  console.log(`| ${k} | ${cases} | ${hits} | ${((100 * hits) / cases).toFixed(1)} |`);
}

// Cost: the detector's work per iteration (one call, its arguments and a 2 KB result) next to
// one iteration of the agent loop (scripted model, no-op tool, NullReporter), side by side.
const noop = defineTool({ name: 'noop', description: 'does nothing', parameters: z.object({}), execute: () => 'ok' });
const ROUNDS = 12;
async function loop(): Promise<void> {
  const script = (_c: unknown, _r: unknown, call: number): ScriptedStep =>
    call + 1 < ROUNDS ? { toolCalls: [{ name: 'noop', args: {}, id: `call_${call}` }] } : { content: 'done' };
  const runtime = new AgentRuntime(
    { provider: 'scripted', maxIterations: ROUNDS + 1, progress: { aiDriven: false } },
    { provider: new ScriptedProvider(script, { record: false }), tools: [noop], progressReporter: new NullReporter() },
  );
  await runtime.run('Do the task');
}
const result2k = 'x'.repeat(2048);
function detectorOnly(): void {
  const d = createStallDetector();
  for (let i = 0; i < ROUNDS; i++) {
    d.toolCall({
      iteration: i,
      id: `c${i}`,
      name: 'read_file',
      args: { path: `src/f${i}.ts`, lines: [1, 200] },
      result: result2k,
      ok: true,
    });
    d.text(i, 'Reading the next file.');
    d.iterationFinished(i);
  }
}
const loopTimes: number[] = [];
const detectorTimes: number[] = [];
for (let round = 0; round < 5; round++) {
  const bench = new Bench({ time: 300, warmup: true });
  bench.add('loop', loop);
  bench.add('detector', detectorOnly);
  await bench.run();
  const [a, b] = bench.tasks;
  loopTimes.push(a!.result.state === 'completed' ? a!.result.latency.mean : Number.NaN);
  detectorTimes.push(b!.result.state === 'completed' ? b!.result.latency.mean : Number.NaN);
}
const share = median(detectorTimes.map((d, i) => d / loopTimes[i]!));
console.log(
  `\nCost: ${ROUNDS}-iteration run of the loop ${(median(loopTimes) * 1000).toFixed(0)} µs; the detector's work for the same ${ROUNDS} iterations ${(median(detectorTimes) * 1000).toFixed(1)} µs`,
);
console.log(`per iteration the detector adds ${(share * 100).toFixed(2)}% of the loop's own cost (×${(1 + share).toFixed(3)})`);
