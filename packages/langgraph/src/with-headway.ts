// The bridge between one LangGraph run and headway's events. LangGraph owns the loop: the node
// runs, the plan key's updates and the state reach the bridge synchronously from inside
// LangGraph's loop through the channel LangGraph forwards a subgraph's stream parts on
// (`configurable.__pregel_stream`), not as parts of the graph's own stream: every part streamed
// to the caller crosses several async streams, which cost more per step than the whole bridge.
// So the graph's own stream is asked only for `custom` parts (what a node writes with
// `config.writer`, nothing otherwise), and the state comes forwarded too: the `values` part of
// every superstep that `graph.invoke` would carry across those streams, the bridge gets for a
// function call. A limit asks the run to stop at the next superstep boundary with LangGraph's own
// `RunControl`; at `recursionLimit` (GraphRecursionError), the time budget or the spend budget
// the run ends with the progress report instead of an exception.
import { renderProgressReport, type ModelUsage, type ProgressHub } from '@headway/protocol';
import { errorMessage } from '@headway/protocol/internal';
import { LangGraphError } from './langgraph-error.js';
import { parseOptions, type WithHeadwayOptions } from './options.js';
import { bridgeSignal, type BridgeRunCore as RunCore, type HeadwayRunResult } from '@headway/runtime/bridge-kit';
import { RunControl } from '@langchain/langgraph';
import { createRunCore } from './run-core.js';

/** The part of a compiled LangGraph graph the bridge uses: `stream` with LangGraph's options. */
export interface StreamableGraph {
  readonly name?: string;
  stream(input: unknown, options: Record<string, unknown>): Promise<AsyncIterable<unknown>>;
}

/** What {@link HeadwayGraphRun.run} returns: how the run ended, the graph's last state, or its error. */
export type HeadwayGraphResult = HeadwayRunResult & {
  /** The graph's state after the last superstep (its last `values` part, as `graph.invoke` returns it). */
  state?: unknown;
  /** The report in Markdown, for a run that stopped short. */
  reportMarkdown?: string;
  /** What the graph threw, for a run that ended in an error or was cancelled. */
  error?: unknown;
};

/** One tracked LangGraph run. */
export interface HeadwayGraphRun {
  readonly runId: string;
  /** The hub events go to (the one passed in, or the one created for `sinks`). */
  readonly hub: ProgressHub;
  /** Streams `graph` on `input` with headway's events, limits and report; rethrows nothing. Call once. */
  run(graph: StreamableGraph, input: unknown, config?: Record<string, unknown>): Promise<HeadwayGraphResult>;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const count = (n: unknown): number => (typeof n === 'number' && Number.isFinite(n) && n >= 0 ? Math.floor(n) : 0);

/** Messages in a node's writes: `{ messages }` (what LangGraph 1.x streams), or `[key, value]` pairs. */
function messagesOf(writes: unknown): Record<string, unknown>[] {
  // The common case (a node wrote `{ messages: [...] }`): one array, no intermediate ones.
  if (isRecord(writes) && Array.isArray(writes.messages)) return (writes.messages as unknown[]).filter(isRecord);
  const values: unknown[] = [];
  if (isRecord(writes)) values.push(writes.messages);
  else if (Array.isArray(writes)) for (const w of writes) if (Array.isArray(w) && w[0] === 'messages') values.push(w[1]);
  const out: Record<string, unknown>[] = [];
  for (const value of values) for (const m of Array.isArray(value) ? value : [value]) if (isRecord(m)) out.push(m);
  return out;
}

/** Token counts of the AI messages a node wrote (LangChain's `usage_metadata`). */
function usageOf(messages: Record<string, unknown>[]): ModelUsage | undefined {
  let found = false;
  let inputTokens = 0;
  let outputTokens = 0;
  for (const m of messages) {
    const u = m.usage_metadata;
    if (!isRecord(u)) continue;
    found = true;
    inputTokens += count(u.input_tokens);
    outputTokens += count(u.output_tokens);
  }
  return found ? { inputTokens, outputTokens } : undefined;
}

/** The model named by the first AI message that names one (LangChain's `response_metadata.model_name`). */
function modelOf(messages: Record<string, unknown>[]): string {
  for (const m of messages) {
    const name = isRecord(m.response_metadata) ? m.response_metadata.model_name : undefined;
    if (typeof name === 'string') return name;
  }
  return 'unknown';
}

/** The namespace of the top-level graph's chunks (shared: most chunks have it). */
const TOP: readonly string[] = [];

/** A thrown value's `name`, read without trusting it (a getter may throw). */
function nameOf(error: unknown): string {
  try {
    return isRecord(error) && typeof error.name === 'string' ? error.name : '';
  } catch {
    return '';
  }
}

const textOf = (content: unknown): string =>
  typeof content === 'string'
    ? content
    : Array.isArray(content)
      ? content.map((p) => (isRecord(p) && typeof p.text === 'string' ? p.text : '')).join('')
      : '';

/**
 * Tracks one LangGraph run with headway: supersteps are iterations, node runs are steps (with
 * tokens and cost from the AI messages they write), tool-node runs are `tool.executing` /
 * `tool.completed` per tool call, subgraphs are nested progress that never moves the bar
 * backwards, and updates of `planKey` are `plan.updated`. `recursionLimit` (default
 * `maxIterations`), the time budget and the spend budget end with headway's progress report —
 * asked from `reportModel` when one is given and a call is left, else built from the tool-call
 * log — instead of `GraphRecursionError`.
 *
 * @throws {LangGraphError} `LANGGRAPH_INVALID_OPTIONS`, naming every invalid field.
 * @example
 * ```ts
 * const tracked = withHeadway({ task: 'Find the auth middleware', sinks: [new CLIReporter()], maxIterations: 10, planKey: 'todos' });
 * const { outcome, report, state } = await tracked.run(graph, { messages: [['user', 'Find the auth middleware']] });
 * ```
 */
export function withHeadway(options: WithHeadwayOptions): HeadwayGraphRun {
  const o = parseOptions(options);
  const core = createRunCore(o);
  let used = false;
  return {
    runId: core.hub.runId,
    hub: core.hub,
    async run(graph, input, config = {}) {
      if (used)
        throw new LangGraphError(
          'LANGGRAPH_INVALID_OPTIONS',
          'withHeadway: run() was already called; track each run with its own withHeadway()',
        );
      used = true;
      if (typeof graph.name === 'string') core.nameAgent(graph.name);
      return track(core, o, graph, input, config);
    },
  };
}

/** What LangGraph's loop needs of the stream it forwards a subgraph's parts to: the modes it wants, and `push`. */
interface ForwardedStream {
  readonly modes: ReadonlySet<string>;
  push(chunk: unknown): void;
}

/** The config key LangGraph reads that stream from (its `CONFIG_KEY_STREAM`, not part of its public exports). */
const FORWARDED_STREAM_KEY = '__pregel_stream';

/**
 * The `RunControl` the graph runs with: the caller's (so their own drain still works), else a new
 * one. Read without trusting the caller's config: a getter that throws means a new one.
 */
function controlFor(config: Record<string, unknown>): { control: unknown; drain: () => void } {
  try {
    const given = config.control;
    if (isRecord(given) && typeof given.requestDrain === 'function') {
      const requestDrain = given.requestDrain as (reason?: string) => void;
      return {
        control: given,
        drain: () => {
          requestDrain.call(given, 'headway');
        },
      };
    }
  } catch {
    // Not a control the bridge can use: its own follows.
  }
  const control = new RunControl();
  return {
    control,
    drain: () => {
      control.requestDrain('headway');
    },
  };
}

async function track(
  core: RunCore,
  o: WithHeadwayOptions,
  graph: StreamableGraph,
  input: unknown,
  config: Record<string, unknown>,
): Promise<HeadwayGraphResult> {
  const toolNodes = new Set(o.toolNodes ?? ['tools']);
  const toolCalls = new Map<string, { name: string; args: unknown }[]>();
  const open = new Set<string>();
  const namespaces: string[] = [];
  let state: unknown;
  /** `boundary`: between supersteps (every node of the last one has finished); `stopped`: the bridge asked the graph to stop; `parts`: forwarded so far. An object: the forwarded stream changes it. */
  const at = { boundary: true, stopped: false, parts: 0 };
  const { control, drain } = controlFor(config);

  /** At a superstep boundary: a limit that says stop makes LangGraph stop before the next superstep starts. */
  const checkStop = (): void => {
    if (!at.stopped && core.turnStarting() !== undefined) {
      at.stopped = true;
      try {
        drain();
      } catch (error) {
        // The caller's control would not drain: the graph runs on, and the report still follows.
        internal(
          o,
          new LangGraphError('LANGGRAPH_NO_DRAIN', `the run control would not stop the graph: ${errorMessage(error)}`, { cause: error }),
        );
      }
    }
  };

  const onTask = (ns: readonly string[], data: Record<string, unknown>): void => {
    const id = typeof data.id === 'string' ? data.id : '';
    const node = typeof data.name === 'string' ? data.name : 'node';
    if (ns.length > 0) {
      const key = ns.join('|');
      if (!namespaces.includes(key)) {
        namespaces.push(key);
        core.nest(`subgraph ${ns.map((n) => n.split(':')[0]).join(' › ')}`);
      }
    }
    const name = ns.length === 0 ? node : `${ns.map((n) => n.split(':')[0]).join('/')}/${node}`;
    if ('input' in data) {
      if (ns.length === 0 && at.boundary) {
        at.boundary = false;
        core.iterationStarted();
      }
      open.add(id);
      core.stepStarted(id, name, toolNodes.has(node) ? `tool node ${name}` : `node ${name}`);
      if (toolNodes.has(node)) {
        const last = (isRecord(data.input) && Array.isArray(data.input.messages) ? data.input.messages : []).at(-1) as unknown;
        const calls = isRecord(last) && Array.isArray(last.tool_calls) ? last.tool_calls.filter(isRecord) : [];
        const started: { name: string; args: unknown }[] = [];
        for (const c of calls) {
          const callName = typeof c.name === 'string' ? c.name : 'tool';
          const callId = typeof c.id === 'string' ? c.id : `${id}-${String(started.length)}`;
          core.toolStarted(callName, callId, c.args);
          started.push({ name: callName, args: c.args });
        }
        toolCalls.set(id, started);
      }
      return;
    }
    const messages = messagesOf(data.result);
    const failed = data.error !== undefined && data.error !== null;
    if (toolNodes.has(node)) {
      const started = toolCalls.get(id) ?? [];
      toolCalls.delete(id);
      for (const m of messages) {
        const callId = typeof m.tool_call_id === 'string' ? m.tool_call_id : '';
        const match = started.find((s) => s.name === m.name) ?? started[0];
        core.toolFinished(
          typeof m.name === 'string' ? m.name : (match?.name ?? 'tool'),
          callId,
          match?.args,
          textOf(m.content),
          m.status !== 'error',
        );
      }
    } else {
      for (const m of messages) if (Array.isArray(m.tool_calls) && m.tool_calls.length === 0) core.text(textOf(m.content));
    }
    core.finishStep(id, usageOf(messages), modelOf(messages), failed ? 'error' : undefined);
    open.delete(id);
    if (ns.length > 0 && open.size === 0) core.unnest();
    if (ns.length === 0 && open.size === 0) {
      at.boundary = true;
      core.iterationFinished();
      checkStop();
    }
  };

  const onUpdate = (ns: readonly string[], data: unknown): void => {
    if (o.planKey === undefined || ns.length > 0 || !isRecord(data)) return;
    for (const update of Object.values(data)) if (isRecord(update) && o.planKey in update) core.planUpdated(update[o.planKey]);
  };

  /** One part LangGraph's loop forwards, `[namespace, mode, payload]`: read without trusting it, never thrown back into the loop. */
  const forwarded: ForwardedStream = {
    modes: new Set(o.planKey === undefined ? ['tasks', 'values'] : ['tasks', 'updates', 'values']),
    push(chunk) {
      at.parts += 1;
      try {
        if (!Array.isArray(chunk) || core.ending) return;
        // Read by index, not destructured: destructuring runs the array iterator, an allocation per part.
        const ns: unknown = chunk[0];
        const mode: unknown = chunk[1];
        const data: unknown = chunk[2];
        const path = Array.isArray(ns) && ns.length > 0 ? ns.filter((n): n is string => typeof n === 'string') : TOP;
        if (mode === 'tasks' && isRecord(data)) onTask(path, data);
        else if (mode === 'updates') onUpdate(path, data);
        else if (mode === 'values' && path.length === 0) state = data;
      } catch (error) {
        internal(
          o,
          new LangGraphError('LANGGRAPH_BAD_PART', `a part of the graph's stream could not be read: ${errorMessage(error)}`, {
            cause: error,
          }),
        );
      }
    },
  };

  try {
    core.start();
    checkStop();
    const configurable = isRecord(config.configurable) ? config.configurable : {};
    const stream = await graph.stream(input, {
      ...config,
      recursionLimit: typeof config.recursionLimit === 'number' ? config.recursionLimit : core.maxIterations,
      // The graph's own stream carries no part per superstep: the events and the state come
      // through the forwarded stream instead (see the top of this file).
      streamMode: 'custom',
      subgraphs: false,
      control,
      configurable: { ...configurable, [FORWARDED_STREAM_KEY]: forwarded },
      // LangGraph watches a signal at every step (it costs more than the rest of the bridge):
      // give it one only when something can fire it (the caller's signals, the time budget's hard stop).
      ...signalFor(config.signal, o, core.signal),
    });
    for await (const _ of stream) {
      // Only what nodes write with `config.writer`: nothing the bridge reads, drained so the graph runs on.
    }
    // A run that ends forwards at least its input's (or resumed state's) values part: nothing
    // forwarded means this LangGraph no longer forwards stream parts the way the bridge reads them.
    if (at.parts === 0)
      internal(
        o,
        new LangGraphError('LANGGRAPH_NO_EVENTS', 'the graph ran but forwarded no node runs: this LangGraph version is not supported'),
      );
    if (!at.stopped) return { ...(await core.end({ completed: true })), state };
  } catch (error) {
    const name = nameOf(error);
    if (at.stopped && name === 'GraphDrained') {
      // The stop the bridge asked for: the report follows.
    } else if (name !== 'GraphRecursionError' && !core.signal.aborted)
      return { ...(await core.end({ completed: false, error })), state, error };
    else if (name === 'GraphRecursionError') core.turnLimitReached();
    else if (core.cancelled()) return { ...(await core.end({ completed: false, error, cancelled: true })), state, error };
  }
  const reportText = await askReport(core, o);
  const end = await core.end({ completed: false, ...(reportText === undefined ? {} : { reportText }) });
  return { ...end, state, ...(end.report === undefined ? {} : { reportMarkdown: renderProgressReport(end.report) }) };
}

/** Passes a failure the bridge survived to `onInternalError` (which may not break the run either). */
function internal(o: WithHeadwayOptions, error: unknown): void {
  try {
    o.onInternalError?.(error, { where: 'stream' });
  } catch {
    // The callback may not break the run either.
  }
}

/** The signal the graph is streamed with: none unless the caller's or the time budget's can fire. */
function signalFor(callerSignal: unknown, o: WithHeadwayOptions, own: AbortSignal): { signal?: AbortSignal } {
  // `own` is the caller's `abortSignal` joined with the time budget's hard stop.
  const signal = bridgeSignal(own, o.abortSignal !== undefined || o.timeBudgetMs !== undefined, callerSignal);
  return signal === undefined ? {} : { signal };
}

async function askReport(core: RunCore, o: WithHeadwayOptions): Promise<string | undefined> {
  const stop = core.stop;
  if (o.reportModel === undefined || stop?.mode !== 'ask' || core.signal.aborted) return undefined;
  core.reportAsked();
  const id = 'report';
  core.stepStarted(id, 'report', 'model call (no tools)');
  try {
    const answer = await o.reportModel.invoke([['user', core.reportPrompt(stop.reason)]], { signal: core.signal });
    core.finishStep(id, usageOf([answer]), 'report-model');
    return textOf(answer.content);
  } catch (error) {
    core.finishStep(id, undefined, 'report-model', 'error');
    core.warnings.push({
      code: 'report-unusable',
      message: `the report call failed (${errorMessage(error)}); built the report from the tool-call log`,
    });
    return undefined;
  }
}
