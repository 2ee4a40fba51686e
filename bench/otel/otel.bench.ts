// Cost of the OpenTelemetry sink per hub event: a hub emitting a realistic run to 10 no-op
// sinks, with and without createOtelSink, side by side in one process. Run: pnpm -F @headway/bench bench:otel
import { createProgressHub, type ProgressEventBody, type ProgressSink } from '@headway/protocol';
import { createOtelSink } from '@headway/otel';
import { AlwaysOffSampler, BasicTracerProvider, NoopSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { compare, printTable } from '../lib/compare.js';
import { verdict } from '../lib/verdict.js';

let hits = 0;
const noop: ProgressSink = () => {
  hits += 1;
};

/**
 * One run as the runtime emits it: 8 iterations of a model call and a tool call. `deltas` is
 * the number of `text.delta` events per call: a streamed reply of about 30 words arrives word by
 * word (as ScriptedProvider and most providers stream), a non-streamed one as none.
 */
function runBodies(deltas: number): ProgressEventBody[] {
  const bodies: ProgressEventBody[] = [
    { type: 'run.started', agentName: 'bench', task: 'Summarize the repository', sessionId: 's', limits: { iterations: 10 } },
  ];
  for (let i = 0; i < 8; i++) {
    bodies.push({ type: 'iteration', index: i, max: 10 });
    bodies.push({ type: 'step.started', step: `llm-${String(i + 1)}`, description: 'model call', provider: 'openai', model: 'gpt-4o' });
    for (let d = 0; d < deltas; d++) bodies.push({ type: 'text.delta', text: 'some streamed words ' });
    bodies.push({
      type: 'step.finished',
      step: `llm-${String(i + 1)}`,
      durationMs: 800,
      usage: { inputTokens: 1200, outputTokens: 80 },
      finishReason: 'tool_calls',
      costUsd: 0.0001,
    });
    bodies.push({ type: 'tool.executing', toolName: 'file_read', toolCallId: `call-${String(i)}`, args: { path: 'README.md' } });
    bodies.push({
      type: 'tool.completed',
      toolName: 'file_read',
      toolCallId: `call-${String(i)}`,
      durationMs: 12,
      ok: true,
      preview: 'contents',
    });
    bodies.push({ type: 'progress', percent: 10 + i * 10, message: 'working' });
  }
  bodies.push({ type: 'run.finished', durationMs: 9000, tokenCount: 10_000, outcome: 'completed' });
  return bodies;
}
const RUNS = 20;

// The OTel API with no SDK registered: what a library user gets until they set one up.
const apiOnly = createOtelSink();
// The real SDK recording every span and metric, exporting nowhere (the export itself is the exporter's cost).
const sdkTracer = new BasicTracerProvider({ spanProcessors: [new NoopSpanProcessor()] }).getTracer('bench');
const sdkMeter = new MeterProvider().getMeter('bench');
const sdk = createOtelSink({ tracer: sdkTracer, meter: sdkMeter });
// The real SDK sampling nothing: spans do not record.
const sampledOut = createOtelSink({
  tracer: new BasicTracerProvider({ sampler: new AlwaysOffSampler() }).getTracer('bench'),
  meter: false,
});

let runNo = 0;
function runs(bodies: ProgressEventBody[], extra?: ProgressSink | { handle: ProgressSink }): () => void {
  return () => {
    for (let r = 0; r < RUNS; r++) {
      runNo += 1;
      const hub = createProgressHub({ runId: `run-${String(runNo)}` });
      for (let i = 0; i < 10; i++) hub.add(noop);
      if (extra !== undefined) hub.add(extra);
      for (const body of bodies) hub.emit(body);
    }
  };
}

const ratios: string[] = [];
for (const [label, deltas] of [
  ['a streamed run', 30],
  ['a run without streaming', 0],
] as const) {
  const bodies = runBodies(deltas);
  const rows = await compare('hub, 10 no-op sinks', [
    { name: 'hub, 10 no-op sinks', fn: runs(bodies) },
    { name: '+ createOtelSink (OTel API, no SDK)', fn: runs(bodies, apiOnly) },
    { name: '+ createOtelSink (SDK, sampled out)', fn: runs(bodies, sampledOut) },
    { name: '+ createOtelSink (SDK recording spans and metrics)', fn: runs(bodies, sdk) },
  ]);
  printTable(`${label}: ${String(bodies.length)} events emitted to 10 no-op sinks, ${String(RUNS)} runs per op`, rows);
  verdict(`otel: ${label}, createOtelSink (OTel API, no SDK) vs the hub's per-event cost`, rows[1]!.ratio, '<=', 1.3);
  ratios.push(
    `${label}: ${rows[1]!.ratio.toFixed(2)}× (sampled out ${rows[2]!.ratio.toFixed(2)}×, recording ${rows[3]!.ratio.toFixed(2)}×)`,
  );
}
console.log(`\notelSink vs the hub's per-event cost with 10 sinks (target ≤ 1.30 with the OTel API and no SDK):\n${ratios.join('\n')}`);
if (hits === 0 || apiOnly.stats().events === 0 || sdk.stats().internalErrors > 0) throw new Error('the sinks did not run as expected');
