import type { ReportInternalError } from './internal-error-context.js';
import type { ProgressEvent, ProgressReporter, ProgressSink, SinkLike } from '@headway/protocol';
import type { StoreCheckpointer } from '../checkpoint/store-checkpointer.js';
import type { ReadPart } from '../context/context-runner.js';
import type { SpendGuard } from '../cost/spend-guard.js';
import type { ProviderRegistry } from '../provider/provider-registry.js';
import type { ChatMessage, ToolSpec } from '../provider/provider.js';
import { toolSpec, type Tool } from '../tools/define-tool.js';
import type { AgentConfig } from './agent-config.js';
import type { Clock } from './clock.js';
import { runSystemPrompt } from './loop-prompts.js';
import type { LoopCheckpointer, RunState } from './run-state.js';
import { modelTimeoutObserver, type TimeoutObserver } from './timeout-observer.js';

/** Everything a loop needs besides its state (internal: built by AgentRuntime). */
export interface LoopContext {
  config: AgentConfig;
  registry: ProviderRegistry;
  /** Tools offered to the model (capability mode applied). */
  tools: ReadonlyMap<string, Tool>;
  toolSpecs: readonly ToolSpec[];
  clock: Clock;
  sinks: readonly SinkLike[];
  onTimeout: TimeoutObserver | undefined;
  checkpointer: LoopCheckpointer | undefined;
  onInternalError: ReportInternalError;
  /** Use the provider's stream (text.delta events). */
  stream: boolean;
  signal: AbortSignal | undefined;
  /** runStream's own queue, added before the user's sinks. */
  extraSink?: ProgressSink;
  /** Prices provider calls and enforces the spending cap. */
  spend?: SpendGuard;
  /** Stores an oversized tool result with the checkpoint; returns what the conversation carries instead. */
  externalize: ((content: string) => Promise<string>) | undefined;
  /** The runtime's context parts (`deps.context`), read once. */
  context: readonly ReadPart[];
  /** Redact secrets in the events the loop makes (`deps.redact`, default true). */
  redact: boolean;
}

/** What a runtime hands to every loop it builds. */
export interface LoopContextInput {
  config: AgentConfig;
  registry: ProviderRegistry;
  clock: Clock;
  offered: readonly Tool[];
  reporter: ProgressReporter;
  sinks: readonly SinkLike[];
  onTimeout: TimeoutObserver | 'model' | undefined;
  spend: SpendGuard;
  onInternalError: ReportInternalError;
  stream: boolean;
  signal: AbortSignal | undefined;
  extraSink: ((event: ProgressEvent) => void) | undefined;
  checkpointer: StoreCheckpointer | undefined;
  context: readonly ReadPart[];
  redact: boolean;
}

/** Builds a loop's context for a run state (fresh or restored). */
export function buildLoopContext(input: LoopContextInput, state: RunState): LoopContext {
  const { checkpointer, onInternalError } = input;
  const onTimeout =
    input.onTimeout === 'model' ? modelTimeoutObserver(input.registry, () => state.messages, input.config.model) : input.onTimeout;
  const ctx: LoopContext = {
    config: input.config,
    registry: input.registry,
    tools: new Map(input.offered.map((t) => [t.name, t])),
    toolSpecs: input.offered.map(toolSpec),
    clock: input.clock,
    sinks: [
      // First, so an event's seq is on disk before anyone can have seen it.
      ...(checkpointer === undefined
        ? []
        : [
            (event: ProgressEvent) => {
              checkpointer.noteSeq(event.seq, (error) => {
                onInternalError(error, 'checkpoint.seq');
              });
            },
          ]),
      input.reporter,
      ...input.sinks,
    ],
    onTimeout,
    checkpointer,
    spend: input.spend,
    externalize: checkpointer === undefined ? undefined : (content: string) => checkpointer.externalize(content),
    onInternalError,
    context: input.context,
    redact: input.redact,
    stream: input.stream,
    signal: input.signal,
  };
  if (input.extraSink !== undefined) ctx.extraSink = input.extraSink;
  return ctx;
}

/** The state of a run that starts now: system prompt, session history, the task. */
export function freshRunState(init: {
  config: AgentConfig;
  runId: string;
  sessionId: string;
  input: string;
  startedAt: number;
  history: readonly ChatMessage[];
  task?: string | undefined;
  parentRunId?: string | undefined;
}): RunState {
  return {
    ...(init.task === undefined ? {} : { task: init.task }),
    ...(init.parentRunId === undefined ? {} : { parentRunId: init.parentRunId }),
    agentName: init.config.agentName,
    version: 1,
    runId: init.runId,
    sessionId: init.sessionId,
    taskId: init.runId,
    input: init.input,
    status: 'running',
    startedAt: init.startedAt,
    messages: [{ role: 'system', content: runSystemPrompt(init.config) }, ...init.history, { role: 'user', content: init.input }],
    iteration: 0,
    usage: { inputTokens: 0, outputTokens: 0 },
    spentUsd: 0,
    costByModel: [],
    tracker: null,
    log: null,
    toolsUsed: [],
    failureStreaks: {},
    inFlight: null,
    lastSeq: 0,
    windDown: null,
    extendedMs: 0,
    approached: [],
  };
}
