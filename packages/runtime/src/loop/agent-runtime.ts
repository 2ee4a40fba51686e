// Over 300 lines on purpose: most of it is the public API and its TSDoc; recovery, the runStream
// queue and building a loop live beside it (run-recovery.ts, run-stream.ts, loop-context.ts).
import { randomUUID } from 'node:crypto';
import {
  NullReporter,
  describeIssues,
  progressReportSchema,
  type OnInternalError,
  type ProgressEvent,
  type ProgressReporter,
  type SinkLike,
} from '@headway/protocol';
import { CheckpointError } from '../checkpoint/checkpoint-error.js';
import type { AgentRuntimeErrorContext, RuntimeErrorWhere } from './internal-error-context.js';
import type { CheckpointStore } from '../checkpoint/checkpoint-store.js';
import type { MaybePromise } from '../checkpoint/maybe-promise.js';
import { resolveRecoveryPolicy, type PendingRecovery, type RecoveryPolicy } from '../checkpoint/recovery.js';
import { abandonAllRunning, loadRunning, requireStore, scanPending } from '../checkpoint/run-recovery.js';
import { runStateFromCheckpoint } from '../checkpoint/run-state-codec.js';
import { StoreCheckpointer } from '../checkpoint/store-checkpointer.js';
import { CostTracker, type CostSummary } from '../cost/cost-tracker.js';
import type { ModelPrice, PriceTable } from '../cost/price-table.js';
import { spendGuard } from '../cost/spend-guard.js';
import { unpricedCallsOf } from '../cost/model-cost.js';
import { capabilityModeTable, type CapabilityModeDefinition } from '../context/capability-modes.js';
import type { ContextPart } from '../context/context-part.js';
import { readContextParts, type ReadPart } from '../context/context-runner.js';
import type { CircuitBreakerOptions } from '../provider/circuit-breaker.js';
import type { Provider } from '../provider/provider.js';
import { ProviderRegistry } from '../provider/provider-registry.js';
import type { RetryOptions } from '../provider/retry-policy.js';
import { MemorySessionStore } from '../session/memory-session-store.js';
import { openSession } from '../session/session-history.js';
import type { SessionStore } from '../session/session-store.js';
import type { Tool } from '../tools/define-tool.js';
import { UPDATE_PLAN_TOOL_NAME, updatePlanTool } from '../tools/update-plan-tool.js';
import { validateUntrusted } from '@headway/protocol/internal';
import { continuationPrompt } from '@headway/report';
import { z } from 'zod';
import { parseAgentConfig, type AgentConfig, type AgentConfigInput } from './agent-config.js';
import { systemClock, type Clock } from './clock.js';
import { ConfigError } from './config-error.js';
import type { ContinueFrom, RunResult } from './finish-run.js';
import { buildLoopContext, freshRunState } from './loop-context.js';
import { RunLoop } from './run-loop.js';
import type { RunState } from './run-state.js';
import { streamRun } from './run-stream.js';
import type { TimeoutObserver } from './timeout-observer.js';

/** What an {@link AgentRuntime} is built from besides its config. */
export interface AgentRuntimeDeps {
  /** The model backend (registered under its `name`). Give this or `providers`. */
  provider?: Provider;
  /** A registry of providers; `config.provider` names the one to use. */
  providers?: ProviderRegistry;
  /** Tools the model may call (filtered by `capabilityMode`). */
  tools?: readonly Tool[];
  /**
   * Capability modes besides the built-in `full`, `safe-chat`, `discord` and `no-tools`
   * (one of the same name replaces the built-in); `config.capabilityMode` names one.
   */
  capabilityModes?: readonly CapabilityModeDefinition[];
  /**
   * Optional parts of each run's context pipeline, called in order (e.g. `@headway/context`'s
   * context window, rate limiter and memory). A part that throws is reported once through
   * `onInternalError` and left out for the rest of that run; the run goes on.
   */
  context?: readonly ContextPart[];
  /** Any ProgressReporter (default NullReporter, which costs nothing). */
  progressReporter?: ProgressReporter;
  /** More event sinks: functions, objects with `handle(event)`, reporters. */
  sinks?: readonly SinkLike[];
  /** Time source for budgets, durations and timestamps (default the system clock). */
  clock?: Clock;
  /** Negotiated timeouts: a function deciding on extensions, or `'model'` to ask the model. */
  onTimeout?: TimeoutObserver | 'model';
  /**
   * Where runs save checkpoints for crash recovery (`MemoryCheckpointStore`, or a store
   * package's such as `@headway/store-sqlite`). Incomplete ones are listed in `pendingRecovery`.
   */
  checkpointStore?: CheckpointStore;
  /**
   * Session history across runs. Default: the checkpoint store's own session store when it
   * keeps one (`sessionStore()`, e.g. SQLite in the same file), else in memory.
   */
  sessionStore?: SessionStore;
  /** Prices per model (USD per million tokens) on top of the defaults, or a whole `PriceTable`. */
  prices?: PriceTable | Readonly<Record<string, ModelPrice>>;
  /** Ages that pick each pending recovery's strategy (default: resume < 1 h, restart < 24 h). */
  recovery?: Partial<RecoveryPolicy>;
  /** Retry policy when `provider` is given (a `providers` registry has its own). */
  retry?: RetryOptions;
  /** Circuit breaker options when `provider` is given. */
  circuitBreaker?: CircuitBreakerOptions;
  /** Randomness for retry jitter when `provider` is given. */
  random?: () => number;
  /** Id generator for runs and sessions (default `crypto.randomUUID`). */
  generateId?: () => string;
  /**
   * Told about failures the run survives: sinks and reporters that throw, checkpoint writes
   * that fail, rejected model `_progress`. Its own errors are ignored.
   */
  onInternalError?: OnInternalError<AgentRuntimeErrorContext>;
  /**
   * Secrets in the events a run emits (tool results' `preview`, tool `args`, the plan's text:
   * API keys, `DB_PASSWORD=…`, bearer tokens, URL passwords, secret-named keys) are replaced
   * with `[REDACTED]` where the events are made; the model still gets every tool result
   * whole. `false` turns this off, for a trusted, local event stream only.
   */
  redact?: false;
}

const continueFromSchema = z.object({ runId: z.string().min(1), report: progressReportSchema });

/** Options of one run. */
export interface RunOptions {
  /** Session the run belongs to (default a new id). */
  sessionId?: string;
  /** Cancels the run: the provider call and running tools are aborted, the result carries a report. */
  signal?: AbortSignal;
  /** Stream model output as `text.delta` events (default false for `run`, true for `runStream`). */
  stream?: boolean;
}

/**
 * The agent tool loop: calls the model, runs the tools it asks for, enforces iteration and
 * time limits, reports progress through a hub to any reporter or sink, and when a run stops
 * short hands over a structured progress report instead of a shrug.
 *
 * @example
 * ```ts
 * const runtime = new AgentRuntime(
 *   { provider: 'scripted', maxIterations: 10 },
 *   { provider: new ScriptedProvider([{ toolCalls: [{ name: 'file_read', args: { path: 'README.md' } }] }, { content: 'Done.' }]), tools: [fileRead] },
 * );
 * const result = await runtime.run('Summarize the README file');
 * result.status; // 'completed'
 * ```
 */
export class AgentRuntime {
  readonly config: AgentConfig;
  /** The providers this runtime calls (with retries and circuit breakers). */
  readonly providers: ProviderRegistry;
  /**
   * Runs that did not finish (crash, kill, deploy), found in `deps.checkpointStore` when
   * the runtime was built, each with a strategy by age. A promise when the store is
   * asynchronous; empty without a store.
   */
  readonly pendingRecovery: MaybePromise<PendingRecovery[]>;
  readonly #costs: CostTracker;
  readonly #sessions: SessionStore;
  /** Runs of this runtime in progress: their checkpoints are not pending recovery. */
  readonly #activeRuns = new Set<string>();
  readonly #deps: AgentRuntimeDeps;
  readonly #tools: ReadonlyMap<string, Tool>;
  readonly #clock: Clock;
  readonly #generateId: () => string;
  readonly #mode: CapabilityModeDefinition;
  readonly #context: readonly ReadPart[];

  /**
   * @throws {ConfigError} `RUNTIME_INVALID_CONFIG` naming the bad field of `config` or `deps`.
   */
  constructor(config: AgentConfigInput, deps: AgentRuntimeDeps) {
    this.config = parseAgentConfig(config);
    this.#deps = deps;
    this.#clock = deps.clock ?? systemClock;
    this.#generateId = deps.generateId ?? randomUUID;
    if (deps.providers !== undefined) {
      this.providers = deps.providers;
    } else if (deps.provider !== undefined) {
      this.providers = new ProviderRegistry([deps.provider], {
        preferred: this.config.provider,
        clock: this.#clock,
        ...(deps.retry === undefined ? {} : { retry: deps.retry }),
        ...(deps.circuitBreaker === undefined ? {} : { circuitBreaker: deps.circuitBreaker }),
        ...(deps.random === undefined ? {} : { random: deps.random }),
      });
    } else {
      throw new ConfigError('RUNTIME_INVALID_CONFIG', 'Invalid agent deps: provider: give deps.provider or deps.providers', {
        issues: [{ path: 'provider', message: 'give deps.provider or deps.providers' }],
      });
    }
    if (deps.providers !== undefined && deps.providers.preferred === undefined) deps.providers.preferred = this.config.provider;
    const tools = new Map<string, Tool>();
    (deps.tools ?? []).forEach((tool, i) => {
      if (typeof tool !== 'object' || typeof tool.execute !== 'function' || typeof tool.jsonSchema !== 'object') {
        throw new ConfigError('RUNTIME_INVALID_TOOL', `Invalid agent deps: tools[${i}]: expected a tool made with defineTool`, {
          issues: [{ path: `tools[${i}]`, message: 'expected a tool made with defineTool' }],
        });
      }
      if (tools.has(tool.name)) {
        throw new ConfigError(
          'RUNTIME_INVALID_TOOL',
          `Invalid agent deps: tools[${i}]: a tool named "${tool.name}" is already registered`,
          { issues: [{ path: `tools[${i}].name`, message: `a tool named "${tool.name}" is already registered` }] },
        );
      }
      tools.set(tool.name, tool);
    });
    if (this.config.planTool) {
      if (tools.has(UPDATE_PLAN_TOOL_NAME)) {
        throw new ConfigError(
          'RUNTIME_INVALID_TOOL',
          `Invalid agent deps: tools: a tool named "${UPDATE_PLAN_TOOL_NAME}" clashes with the built-in plan tool (planTool: true)`,
          { issues: [{ path: 'tools', message: `a tool named "${UPDATE_PLAN_TOOL_NAME}" clashes with the built-in plan tool` }] },
        );
      }
      tools.set(UPDATE_PLAN_TOOL_NAME, updatePlanTool);
    }
    this.#tools = tools;
    const mode = capabilityModeTable(deps.capabilityModes).get(this.config.capabilityMode);
    if (mode === undefined) {
      const known = [...capabilityModeTable(deps.capabilityModes).keys()].join(', ');
      const message = `unknown mode "${this.config.capabilityMode}" (known: ${known}; add one with deps.capabilityModes)`;
      throw new ConfigError('RUNTIME_INVALID_CONFIG', `Invalid agent config: capabilityMode: ${message}`, {
        issues: [{ path: 'capabilityMode', message }],
      });
    }
    this.#mode = mode;
    this.#context = readContextParts(deps.context);
    this.#costs = new CostTracker({ budgetUsd: this.config.maxSpendUsd, ...(deps.prices === undefined ? {} : { prices: deps.prices }) });
    const store = deps.checkpointStore;
    this.#sessions = deps.sessionStore ?? store?.sessionStore?.() ?? new MemorySessionStore({ clock: this.#clock });
    this.pendingRecovery = store === undefined ? [] : scanPending(store, resolveRecoveryPolicy(deps.recovery), this.#clock);
  }

  /**
   * Continues an unfinished run from its last checkpoint: finished tool calls are not run
   * again (their results come from the checkpoint), a call that was in flight runs again
   * with the same idempotency key, the progress bar and the event `seq` continue.
   *
   * @throws {CheckpointError} `CHECKPOINT_NOT_FOUND`, `CHECKPOINT_NOT_RUNNING`, `CHECKPOINT_CORRUPT`,
   * or `CHECKPOINT_CONFLICT` when this runtime is already running it.
   * @example
   * ```ts
   * for (const r of await runtime.pendingRecovery) {
   *   if (r.strategy === 'resume') await runtime.resume(r.checkpointId);
   * }
   * ```
   */
  async resume(checkpointId: string, options: Omit<RunOptions, 'sessionId'> = {}): Promise<RunResult> {
    const { store, checkpoint } = await loadRunning(this.#deps.checkpointStore, checkpointId);
    const state = runStateFromCheckpoint(checkpoint);
    if (this.#activeRuns.has(state.runId)) {
      throw new CheckpointError('CHECKPOINT_CONFLICT', `checkpoint ${checkpointId}: its run ${state.runId} is running in this runtime`);
    }
    await openSession(this.#sessions, state.sessionId, this.#costs, {
      spentUsd: state.spentUsd,
      calls: state.iteration,
      unpricedCalls: unpricedCallsOf(state.costByModel),
    });
    const checkpointer = new StoreCheckpointer(store, this.#generateId);
    checkpointer.attach(checkpoint, state);
    return this.#execute(this.#newLoop(state, options, undefined, checkpointer));
  }

  /** Starts an unfinished run's task again from the beginning, in its session; its checkpoint is abandoned. */
  async restart(checkpointId: string, options: Omit<RunOptions, 'sessionId'> = {}): Promise<RunResult> {
    const { store, checkpoint } = await loadRunning(this.#deps.checkpointStore, checkpointId);
    await store.abandon(checkpointId);
    return this.run(checkpoint.input, { ...options, sessionId: checkpoint.sessionId });
  }

  /** Marks an unfinished run's checkpoint abandoned: it will not be offered for recovery again. */
  async abandon(checkpointId: string): Promise<void> {
    await requireStore(this.#deps.checkpointStore, checkpointId).abandon(checkpointId);
  }

  /** Abandons every unfinished checkpoint except those of runs in progress here; returns how many. */
  async abandonAll(): Promise<number> {
    return abandonAllRunning(this.#deps.checkpointStore, this.#activeRuns);
  }

  /**
   * Budget and spend: of one session, or of all sessions this runtime has seen.
   *
   * @example
   * ```ts
   * const { budgetUsd, spentUsd, calls, bySession } = runtime.cost();
   * ```
   */
  cost(sessionId?: string): CostSummary {
    return this.#costs.cost(sessionId);
  }

  /** Runs a loop to its end, then records the run in its session. */
  async #execute(loop: RunLoop): Promise<RunResult> {
    const { state } = loop;
    this.#activeRuns.add(state.runId);
    let result: RunResult;
    try {
      result = await loop.execute();
    } finally {
      this.#activeRuns.delete(state.runId);
    }
    try {
      await this.#sessions.recordRun(state.sessionId, {
        messages: [
          { role: 'user', content: state.input },
          { role: 'assistant', content: result.text },
        ],
        spentUsd: state.spentUsd,
        calls: state.iteration,
      });
    } catch (error) {
      this.#internalError(error, 'session');
    }
    return result;
  }

  #internalError(error: unknown, where: RuntimeErrorWhere): void {
    try {
      this.#deps.onInternalError?.(error, { where });
    } catch {
      // The error callback may not break the run either.
    }
  }

  /** The model a provider call is priced as: the configured one, else the provider's own default. */
  #pricingModel(): string {
    if (this.config.model !== undefined) return this.config.model;
    try {
      const name = this.providers.resolve();
      const model = (this.providers.get(name) as { model?: unknown } | undefined)?.model;
      return typeof model === 'string' ? model : name;
    } catch {
      return this.config.provider;
    }
  }

  /** The model with the provider that serves it (`openai/gpt-4o`): how a run's cost by model names it. */
  #modelLabel(): string {
    const model = this.#pricingModel();
    try {
      const name = this.providers.resolve();
      return model === name || model.startsWith(`${name}/`) ? model : `${name}/${model}`;
    } catch {
      return model;
    }
  }

  /** The tools the model is offered under the configured capability mode. */
  get tools(): Tool[] {
    return [...this.#tools.values()].filter((t) => this.#mode.tools(t));
  }

  /** The system prompt runs start with under the configured capability mode. */
  get systemPrompt(): string {
    return this.#mode.systemPrompt === undefined ? this.config.systemPrompt : this.#mode.systemPrompt(this.config.systemPrompt);
  }

  /**
   * Switches to another registered provider.
   *
   * @throws {ProviderError} `PROVIDER_UNKNOWN` or `PROVIDER_UNAVAILABLE`.
   */
  switchProvider(name: string): void {
    this.providers.switchProvider(name);
  }

  /**
   * Runs the agent on `input` until it answers, hits a limit, is cancelled or fails. Never
   * rejects because of the model or a tool: the result's `status` says how it ended, and
   * every run that stopped short carries a `report`.
   */
  async run(input: string, options: RunOptions = {}): Promise<RunResult> {
    return this.#execute(await this.#loop(input, options, undefined));
  }

  /**
   * Continues a run that stopped short, from the progress report it handed over: a new run whose
   * first message is the report's continuation prompt, whose task (in `run.started`, its checkpoint
   * and its own report) is the original task, and whose `run.started` carries `parentRunId`, so
   * stores and the CLI show the chain (run 1 stopped at its limit → run 2 continued → completed).
   * The report may come from a file: it is validated first.
   *
   * @throws {ConfigError} `RUNTIME_INVALID_CONTINUATION` naming what is wrong with `from`.
   * @example
   * ```ts
   * const first = await runtime.run('Summarize the README file');
   * if (first.report) await runtime.continueRun({ runId: first.runId, report: first.report });
   * ```
   */
  async continueRun(from: ContinueFrom, options: RunOptions = {}): Promise<RunResult> {
    // A report read back from a file or a request is hostile: a getter may throw, a proxy be revoked.
    const parsed = validateUntrusted(continueFromSchema, from);
    if (!parsed.success) {
      const { issues, cause } = parsed;
      throw new ConfigError('RUNTIME_INVALID_CONTINUATION', `Invalid continuation: ${describeIssues(issues)}`, {
        issues,
        ...(cause === undefined ? {} : { cause }),
      });
    }
    const { runId, report } = parsed.data;
    return this.#execute(
      await this.#loop(continuationPrompt(report), options, undefined, {
        task: report.task === '' ? undefined : report.task,
        parentRunId: runId,
      }),
    );
  }

  /**
   * Runs the agent like {@link AgentRuntime.run}, yielding every event as it happens (the
   * last is the terminal event); the generator's return value is the result. Stopping
   * iteration early cancels the run.
   *
   * @example
   * ```ts
   * for await (const event of runtime.runStream('Summarize the README file')) {
   *   if (event.type === 'text.delta') process.stdout.write(event.text);
   * }
   * ```
   */
  async *runStream(input: string, options: RunOptions = {}): AsyncGenerator<ProgressEvent, RunResult, undefined> {
    return yield* streamRun(
      async (sink, signal) => this.#execute(await this.#loop(input, { ...options, stream: options.stream ?? true, signal }, sink)),
      options.signal,
    );
  }

  async #loop(
    input: string,
    options: RunOptions,
    extraSink: ((event: ProgressEvent) => void) | undefined,
    continuation?: { task: string | undefined; parentRunId: string },
  ): Promise<RunLoop> {
    const runId = this.#generateId();
    const sessionId = options.sessionId ?? this.#generateId();
    const history = await openSession(this.#sessions, sessionId, this.#costs);
    const state = freshRunState({
      config: { ...this.config, systemPrompt: this.systemPrompt },
      runId,
      sessionId,
      input,
      startedAt: this.#clock.now(),
      history,
      task: continuation?.task,
      parentRunId: continuation?.parentRunId,
    });
    const store = this.#deps.checkpointStore;
    const checkpointer = store === undefined ? undefined : new StoreCheckpointer(store, this.#generateId);
    return this.#newLoop(state, options, extraSink, checkpointer);
  }

  #newLoop(
    state: RunState,
    options: RunOptions,
    extraSink: ((event: ProgressEvent) => void) | undefined,
    checkpointer: StoreCheckpointer | undefined,
  ): RunLoop {
    const deps = this.#deps;
    const context = buildLoopContext(
      {
        config: this.config,
        registry: this.providers,
        clock: this.#clock,
        offered: this.tools,
        reporter: deps.progressReporter ?? new NullReporter(),
        sinks: deps.sinks ?? [],
        onTimeout: deps.onTimeout,
        spend: spendGuard(
          this.#costs,
          () => this.#pricingModel(),
          () => this.#modelLabel(),
        ),
        onInternalError: (error, where) => {
          this.#internalError(error, where);
        },
        stream: options.stream ?? false,
        signal: options.signal,
        extraSink,
        checkpointer,
        context: this.#context,
        redact: deps.redact !== false,
      },
      state,
    );
    return new RunLoop(context, state);
  }
}
