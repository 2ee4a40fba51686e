// The bridge between one OpenAI Agents SDK run and headway's events. The SDK owns the loop:
// this file listens to the runner's hooks (agents, tools, handoffs) and at a limit ends the
// working turns and asks the same agent, without tools, for its progress report. Model calls
// are seen one of two ways. With a time or spend budget (or the caller's own filter), every
// call passes through `callModelInputFilter`, where a limit can stop it before it is made.
// Without one, the hooks alone mark the calls (a call begins when an agent starts or its
// turn's tools are done, and has ended when its tools start or the agent ends) and the SDK's
// own `maxTurns` ends the working turns: a filter makes the SDK clone, key and reconcile the
// whole history on every call, which costs more than the rest of the bridge together.
/* eslint-disable @typescript-eslint/no-explicit-any -- `Agent<any, any>` is the SDK's own bound for "any agent" (Agent is invariant in its context and output types) */
import { renderProgressReport, type ModelUsage, type ProgressHub } from '@headway/protocol';
import { errorMessage } from '@headway/protocol/internal';
import {
  type Agent,
  InputGuardrailTripwireTriggered,
  OutputGuardrailTripwireTriggered,
  Runner,
  user,
  type AgentInputItem,
  type CallModelInputFilter,
  type ModelInputData,
  type NonStreamRunOptions,
  type RunContext,
  type RunErrorHandlers,
  type RunResult,
  type Tool,
} from '@openai/agents';
import { OpenAIAgentsError } from './openai-agents-error.js';
import { parseOptions, type WithHeadwayOptions } from './options.js';
import { bridgeSignal, type BridgeRunCore as RunCore, type HeadwayRunResult } from '@headway/runtime/bridge-kit';
import { createRunCore, modelCallFinished, modelCallOpen, modelCallStarted } from './run-core.js';

/** Options of {@link HeadwayAgentsRun.run}: the SDK's own run options, and the runner to run on. */
export type HeadwayRunOptions<TContext = undefined> = Omit<NonStreamRunOptions<TContext>, 'stream' | 'signal'> & {
  /** The runner (its model provider and config); default a fresh `new Runner()`. Its hooks are listened to while the run lasts. */
  runner?: Runner;
};

/** What {@link HeadwayAgentsRun.run} returns: how the run ended, and the SDK's result or error. */
export type HeadwayAgentsResult<TAgent extends Agent<any, any>, TContext> = HeadwayRunResult & {
  /** The SDK's result: for a limit, its `finalOutput` is the report in Markdown (text agents). */
  result?: RunResult<TContext, TAgent>;
  /** What the SDK's run threw, for a run that ended in an error or was cancelled. */
  error?: unknown;
};

/** One tracked OpenAI Agents SDK run. */
export interface HeadwayAgentsRun {
  readonly runId: string;
  /** The hub events go to (the one passed in, or the one created for `sinks`). */
  readonly hub: ProgressHub;
  /** Runs `agent` on `input` with headway's events, limits and report; rethrows nothing. Call once. */
  run<TAgent extends Agent<any, any>, TContext = undefined>(
    agent: TAgent,
    input: string | AgentInputItem[],
    options?: HeadwayRunOptions<TContext>,
  ): Promise<HeadwayAgentsResult<TAgent, TContext>>;
}

const usageOf = (entries: readonly { inputTokens?: number; outputTokens?: number }[]): ModelUsage => {
  const count = (n: unknown): number => (typeof n === 'number' && Number.isFinite(n) && n >= 0 ? Math.floor(n) : 0);
  let inputTokens = 0;
  let outputTokens = 0;
  for (const e of entries) {
    inputTokens += count(e.inputTokens);
    outputTokens += count(e.outputTokens);
  }
  return { inputTokens, outputTokens };
};

/** The fields of the SDK's function-call item the bridge reads. */
interface ToolCallLike {
  readonly name?: string;
  readonly callId?: string;
  readonly id?: string;
  readonly arguments?: unknown;
}

const callIdOf = (call: ToolCallLike): string => call.callId ?? call.id ?? 'call';

/** A guardrail trip, said in one line; undefined for any other error. */
function guardrailOf(error: unknown): string | undefined {
  if (error instanceof InputGuardrailTripwireTriggered) return `input guardrail ${error.result.guardrail.name} tripped`;
  if (error instanceof OutputGuardrailTripwireTriggered)
    return `output guardrail ${(error.result.guardrail as { name: string }).name} tripped`;
  return undefined;
}

const parseArgs = (text: unknown): unknown => {
  if (typeof text !== 'string') return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
};

/**
 * Tracks one OpenAI Agents SDK run with headway: the same events as headway's runtime
 * (`run.started`, `iteration` per model call, `step.*` with tokens and cost, `tool.*`,
 * `progress`, limits, wind-down, `report.generated`, one terminal event). Handoffs move the bar
 * within the rest of the current agent's slice; at the iteration limit (or the SDK's `maxTurns`),
 * the time budget or the spend budget the run ends with headway's progress report — asked from
 * the agent with its tools off when a call is left, else built from the tool-call log — instead
 * of `MaxTurnsExceededError`.
 *
 * @throws {OpenAIAgentsError} `OPENAI_AGENTS_INVALID_OPTIONS`, naming every invalid field.
 * @example
 * ```ts
 * const tracked = withHeadway({ task: 'Find the auth middleware', sinks: [new CLIReporter()], maxIterations: 10 });
 * const { outcome, report, result } = await tracked.run(agent, 'Find the auth middleware');
 * ```
 */
export function withHeadway(options: WithHeadwayOptions): HeadwayAgentsRun {
  const o = parseOptions(options);
  let used = false;
  const core = createRunCore(o);
  return {
    runId: core.hub.runId,
    hub: core.hub,
    async run(agent, input, runOptions = {}) {
      if (used)
        throw new OpenAIAgentsError(
          'OPENAI_AGENTS_INVALID_OPTIONS',
          'withHeadway: run() was already called; track each run with its own withHeadway()',
        );
      used = true;
      core.nameAgent(agent.name);
      const byHooks = o.timeBudgetMs === undefined && o.maxSpendUsd === undefined && runOptions.callModelInputFilter === undefined;
      // The SDK watches a signal on every call; give it one only when something can fire it.
      const signal = bridgeSignal(core.signal, !byHooks || o.abortSignal !== undefined);
      return track(core, agent, input, runOptions, byHooks, signal);
    },
  };
}

async function track<TAgent extends Agent<any, any>, TContext>(
  core: RunCore,
  agent: TAgent,
  input: string | AgentInputItem[],
  runOptions: HeadwayRunOptions<TContext>,
  byHooks: boolean,
  signal: AbortSignal | undefined,
): Promise<HeadwayAgentsResult<TAgent, TContext>> {
  const { runner = new Runner(), callModelInputFilter: userFilter, errorHandlers: userHandlers, maxTurns, ...sdkOptions } = runOptions;
  let runContext: RunContext | undefined;
  let usageSeen = 0;
  let stepModel = 'unknown';
  /** Where the working turns stopped: the agent and the input of the call that was not made. */
  let stoppedAt: { agent: Agent<any, any>; input: AgentInputItem[] } | undefined;
  let reportText: string | undefined;
  let reportFailure: unknown;

  const finishStep = (): void => {
    const entries = runContext?.usage.requestUsageEntries ?? [];
    const fresh = entries.slice(usageSeen);
    usageSeen = entries.length;
    modelCallFinished(core, fresh.length === 0 ? undefined : usageOf(fresh), stepModel);
  };

  const modelName = (a: Agent<any, any>): string => {
    if (typeof a.model === 'string' && a.model !== '') return a.model;
    if (typeof runner.config.model === 'string' && runner.config.model !== '') return runner.config.model;
    return 'default';
  };

  const filter: CallModelInputFilter = async (args) => {
    finishStep();
    const modelData: ModelInputData = userFilter === undefined ? args.modelData : await userFilter(args);
    if (core.stop?.mode !== 'asked') {
      const stop = core.turnStarting();
      if (stop !== undefined) {
        stoppedAt = { agent: args.agent, input: modelData.input };
        throw new OpenAIAgentsError('OPENAI_AGENTS_LIMIT_STOP', `headway: the run stopped at its ${stop.reason} limit; the report follows`);
      }
    }
    beginStep(args.agent);
    return modelData;
  };

  const beginStep = (working: Agent<any, any>): void => {
    stepModel = modelName(working);
    modelCallStarted(core, { provider: 'openai-agents', model: stepModel });
  };

  // Marking model calls by the hooks (no filter): the SDK's turns are capped one short of the
  // iteration limit, so its `maxTurns` handler asks for the report with the last call.
  const sdkMaxTurns = byHooks ? Math.min(maxTurns ?? Number.POSITIVE_INFINITY, core.maxIterations - 1) : (maxTurns ?? core.maxIterations);
  let toolsRunning = 0;

  /** Asks the agent that was working, with no tools, handoffs or guardrails, for its report. */
  const askReport = async (working: Agent<any, any>, history: AgentInputItem[]): Promise<string | undefined> => {
    const stop = core.stop;
    if (stop?.mode !== 'ask' || core.signal.aborted) return undefined;
    core.reportAsked();
    const reporter = working.clone({
      tools: [],
      handoffs: [],
      mcpServers: [],
      inputGuardrails: [],
      outputGuardrails: [],
      outputType: 'text',
    });
    try {
      const answer = await runner.run(reporter, [...history, user(core.reportPrompt(stop.reason, 1))], {
        maxTurns: 1,
        signal: core.signal,
        callModelInputFilter: filter,
        ...(sdkOptions.context === undefined ? {} : { context: sdkOptions.context }),
      });
      finishStep();
      return typeof answer.finalOutput === 'string' ? answer.finalOutput : '';
    } catch (error) {
      finishStep();
      reportFailure = error;
      return undefined;
    }
  };

  const errorHandlers: RunErrorHandlers<TContext, TAgent> = {
    ...userHandlers,
    maxTurns: async ({ runData }) => {
      finishStep();
      core.turnLimitReached();
      reportText = await askReport(runData.lastAgent ?? agent, runData.history);
      const result = await core.end({ completed: false, ...(reportText === undefined ? {} : { reportText }) });
      // The report in Markdown is the run's final output, so `run()` resolves instead of throwing.
      return { finalOutput: (result.report === undefined ? '' : renderProgressReport(result.report)) as never, includeInHistory: false };
    },
  };

  // By the hooks, a step is one model call and the tools it asked for, as in headway's runtime:
  // it begins when an agent starts or the previous turn's tools are done, and ends there too.
  const listeners = {
    agent_start: (context: RunContext, started: Agent<any, any>): void => {
      runContext = context;
      core.start();
      if (!byHooks) return;
      if (modelCallOpen(core)) finishStep();
      if (core.stop === undefined) beginStep(started);
    },
    agent_tool_start: (_context: RunContext, from: Agent, tool: Tool, details: { toolCall: ToolCallLike }): void => {
      // A call the hooks could not see begin (after a turn that was expected to end the run).
      if (byHooks && !modelCallOpen(core) && (runContext?.usage.requestUsageEntries?.length ?? 0) > usageSeen) beginStep(from);
      toolsRunning += 1;
      const call = details.toolCall;
      core.toolStarted(call.name ?? tool.name, callIdOf(call), parseArgs(call.arguments));
    },
    agent_tool_end: (_context: RunContext, from: Agent, tool: Tool, result: string, details: { toolCall: ToolCallLike }): void => {
      const call = details.toolCall;
      core.toolFinished(call.name ?? tool.name, callIdOf(call), parseArgs(call.arguments), result, true);
      toolsRunning = Math.max(0, toolsRunning - 1);
      if (!byHooks || toolsRunning > 0 || !modelCallOpen(core)) return;
      finishStep();
      // The SDK calls the model again, unless its turns are used up (its maxTurns handler asks
      // for the report) or this agent's tools end the run.
      if (core.stop === undefined && core.iterations < sdkMaxTurns && from.toolUseBehavior === 'run_llm_again') beginStep(from);
    },
    agent_handoff: (_context: RunContext, _from: Agent, to: Agent): void => {
      core.nest(`handed off to ${to.name}`);
    },
    agent_end: (): void => {
      if (byHooks && modelCallOpen(core)) finishStep();
    },
  };
  runner.on('agent_start', listeners.agent_start);
  runner.on('agent_tool_start', listeners.agent_tool_start as never);
  runner.on('agent_tool_end', listeners.agent_tool_end as never);
  runner.on('agent_handoff', listeners.agent_handoff);
  runner.on('agent_end', listeners.agent_end);
  try {
    core.start();
    const result = await runner.run(agent, input, {
      ...sdkOptions,
      maxTurns: sdkMaxTurns,
      ...(signal === undefined ? {} : { signal }),
      ...(byHooks ? {} : { callModelInputFilter: filter }),
      errorHandlers,
    } as NonStreamRunOptions<TContext, TAgent>);
    finishStep();
    if (core.stop === undefined && typeof result.finalOutput === 'string') core.text(result.finalOutput);
    return { ...(await core.end({ completed: true })), result };
  } catch (error) {
    finishStep();
    const guardrail = guardrailOf(error);
    if (guardrail !== undefined) core.warnings.push({ code: 'guardrail-tripped', message: guardrail });
    if (stoppedAt !== undefined && core.stop !== undefined) {
      reportText = await askReport(stoppedAt.agent, stoppedAt.input);
      if (reportFailure !== undefined)
        core.warnings.push({
          code: 'report-unusable',
          message: `the report call failed (${errorMessage(reportFailure)}); built the report from the tool-call log`,
        });
      return { ...(await core.end({ completed: false, ...(reportText === undefined ? {} : { reportText }) })), error };
    }
    return { ...(await core.end({ completed: false, error, cancelled: core.cancelled() })), error };
  } finally {
    runner.off('agent_start', listeners.agent_start);
    runner.off('agent_tool_start', listeners.agent_tool_start as never);
    runner.off('agent_tool_end', listeners.agent_tool_end as never);
    runner.off('agent_handoff', listeners.agent_handoff);
    runner.off('agent_end', listeners.agent_end);
  }
}
