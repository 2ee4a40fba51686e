import type { Attributes, Histogram, Counter, Meter } from '@opentelemetry/api';
import { GEN_AI, HEADWAY, METRIC, OPERATION, TOKEN_TYPE } from './names.js';

/** The instruments of one sink, created once. */
export interface SinkMetrics {
  tokenUsage: Histogram;
  operationDuration: Histogram;
  agentDuration: Histogram;
  toolDuration: Histogram;
  runIterations: Histogram;
  runs: Counter;
}

// Bucket boundaries the GenAI conventions recommend for token counts and durations (seconds).
const TOKEN_BUCKETS = [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864];
const DURATION_BUCKETS = [0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92];
const RUN_DURATION_BUCKETS = [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800, 3600];
const ITERATION_BUCKETS = [1, 2, 3, 5, 8, 13, 21, 34, 55, 89];

/** A histogram with the bucket boundaries it is recorded into. */
function bucketedHistogram(meter: Meter, name: string, description: string, unit: string, buckets: number[]): Histogram {
  return meter.createHistogram(name, { description, unit, advice: { explicitBucketBoundaries: buckets } });
}

/** Creates the sink's instruments on `meter`. */
export function createSinkMetrics(meter: Meter): SinkMetrics {
  return {
    tokenUsage: bucketedHistogram(
      meter,
      METRIC.tokenUsage,
      'Number of input and output tokens used, per model call.',
      '{token}',
      TOKEN_BUCKETS,
    ),
    operationDuration: bucketedHistogram(meter, METRIC.operationDuration, 'Duration of each model call.', 's', DURATION_BUCKETS),
    agentDuration: bucketedHistogram(meter, METRIC.agentDuration, 'Duration of each agent run, by outcome.', 's', RUN_DURATION_BUCKETS),
    toolDuration: bucketedHistogram(meter, METRIC.toolDuration, 'Duration of each tool call, by tool and outcome.', 's', DURATION_BUCKETS),
    runIterations: bucketedHistogram(
      meter,
      METRIC.runIterations,
      'Iterations (model calls of the loop) each run used, by outcome.',
      '{iteration}',
      ITERATION_BUCKETS,
    ),
    runs: meter.createCounter(METRIC.runs, { description: 'Runs that ended, by outcome.', unit: '{run}' }),
  };
}

/** Records into a histogram only a finite, non-negative value. */
export function recordNonNegative(histogram: Histogram, value: number, attributes: Attributes): void {
  if (Number.isFinite(value) && value >= 0) histogram.record(value, attributes);
}

/** The attribute sets of a model call's metrics. */
interface CallAttributes {
  base: Attributes;
  input: Attributes;
  output: Attributes;
}

/** Metric attribute sets, made once and reused: a hot path allocates nothing per event. */
export interface MetricAttributes {
  call(provider: string | undefined, model: string | undefined): { base: Attributes; input: Attributes; output: Attributes };
  tool(toolName: string, ok: boolean): Attributes;
}

/** A {@link MetricAttributes} that keeps at most `limit` sets of each kind (then builds them fresh). */
export function metricAttributes(limit = 1000): MetricAttributes {
  // provider → model → sets; `undefined` keys are fine in a Map and cost no string building.
  const calls = new Map<string | undefined, Map<string | undefined, CallAttributes>>();
  let callCount = 0;
  const tools = { ok: new Map<string, Attributes>(), failed: new Map<string, Attributes>() };
  return {
    call(provider, model) {
      let byModel = calls.get(provider);
      let found = byModel?.get(model);
      if (found === undefined) {
        const base: Attributes = { [GEN_AI.operation]: OPERATION.chat };
        if (provider !== undefined) base[GEN_AI.providerName] = provider;
        if (model !== undefined) base[GEN_AI.requestModel] = model;
        found = {
          base,
          input: { ...base, [GEN_AI.tokenType]: TOKEN_TYPE.input },
          output: { ...base, [GEN_AI.tokenType]: TOKEN_TYPE.output },
        };
        if (callCount < limit) {
          callCount += 1;
          if (byModel === undefined) calls.set(provider, (byModel = new Map<string | undefined, CallAttributes>()));
          byModel.set(model, found);
        }
      }
      return found;
    },
    tool(toolName, ok) {
      const byName = ok ? tools.ok : tools.failed;
      let found = byName.get(toolName);
      if (found === undefined) {
        found = { [GEN_AI.operation]: OPERATION.executeTool, [GEN_AI.toolName]: toolName, [HEADWAY.toolOutcome]: ok ? 'ok' : 'error' };
        if (!ok) found[GEN_AI.errorType] = 'tool_error';
        if (byName.size < limit) byName.set(toolName, found);
      }
      return found;
    },
  };
}
