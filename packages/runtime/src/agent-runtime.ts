import { randomUUID } from 'node:crypto';
import { NullReporter, type ProgressEvent, type ProgressReporter, type SinkLike } from '@headway/protocol';
import { parseAgentConfig, type AgentConfig, type AgentConfigInput } from './agent-config.js';
import type { CircuitBreakerOptions } from './circuit-breaker.js';
import { systemClock, type Clock } from './clock.js';
import { ConfigError } from './config-error.js';
import { toolSpec, type Tool } from './define-tool.js';
import type { Provider } from './provider.js';
import { ProviderRegistry } from './provider-registry.js';
import type { RetryOptions } from './retry-policy.js';
import { RunLoop, type LoopContext, type RunResult } from './run-loop.js';
import type { LoopCheckpointer, RunState } from './run-state.js';
import { modelTimeoutObserver, type TimeoutObserver } from './timeout-observer.js';

/** What an {@link AgentRuntime} is built from besides its config. */
export interface AgentRuntimeDeps {
  /** The model backend (registered under its `name`). Give this or `providers`. */
  provider?: Provider;
  /** A registry of providers; `config.provider` names the one to use. */
  providers?: ProviderRegistry;
  /** Tools the model may call (filtered by `capabilityMode`). */
  tools?: readonly Tool[];
  /** Any ProgressReporter (default NullReporter, which costs nothing). */
  progressReporter?: ProgressReporter;
  /** More event sinks: functions, objects with `handle(event)`, reporters. */
  sinks?: readonly SinkLike[];
  /** Time source for budgets, durations and timestamps (default the system clock). */
  clock?: Clock;
  /** Negotiated timeouts: a function deciding on extensions, or `'model'` to ask the model. */
  onTimeout?: TimeoutObserver | 'model';
  /** Where the loop saves its state for crash recovery. */
  checkpointStore?: LoopCheckpointer;
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
  onInternalError?: (error: unknown, where: string) => void;
}

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
  readonly #deps: AgentRuntimeDeps;
  readonly #tools: ReadonlyMap<string, Tool>;
  readonly #clock: Clock;
  readonly #generateId: () => string;

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
      throw new ConfigError('RUNTIME_INVALID_CONFIG', 'Invalid agent deps: provider: give deps.provider or deps.providers', [
        { path: 'provider', message: 'give deps.provider or deps.providers' },
      ]);
    }
    if (deps.providers !== undefined && deps.providers.preferred === undefined) deps.providers.preferred = this.config.provider;
    const tools = new Map<string, Tool>();
    (deps.tools ?? []).forEach((tool, i) => {
      if (typeof tool !== 'object' || typeof tool.execute !== 'function' || typeof tool.jsonSchema !== 'object') {
        throw new ConfigError('RUNTIME_INVALID_TOOL', `Invalid agent deps: tools[${i}]: expected a tool made with defineTool`, [
          { path: `tools[${i}]`, message: 'expected a tool made with defineTool' },
        ]);
      }
      if (tools.has(tool.name)) {
        throw new ConfigError('RUNTIME_INVALID_TOOL', `Invalid agent deps: tools[${i}]: a tool named "${tool.name}" is already registered`, [
          { path: `tools[${i}].name`, message: `a tool named "${tool.name}" is already registered` },
        ]);
      }
      tools.set(tool.name, tool);
    });
    this.#tools = tools;
  }

  /** The tools the model is offered under the configured capability mode. */
  get tools(): Tool[] {
    switch (this.config.capabilityMode) {
      case 'no-tools':
        return [];
      case 'safe-chat':
        return [...this.#tools.values()].filter((t) => t.safe);
      case 'full':
        return [...this.#tools.values()];
    }
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
  run(input: string, options: RunOptions = {}): Promise<RunResult> {
    return this.#loop(input, options, undefined).execute();
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
    const queue: ProgressEvent[] = [];
    let head = 0;
    let wake: (() => void) | undefined;
    const controller = new AbortController();
    const outer = options.signal;
    const forward = (): void => {
      controller.abort(outer?.reason);
    };
    if (outer?.aborted === true) forward();
    else outer?.addEventListener('abort', forward, { once: true });
    const loop = this.#loop(input, { ...options, stream: options.stream ?? true, signal: controller.signal }, (event) => {
      queue.push(event);
      wake?.();
    });
    let done = false;
    const running = loop.execute().finally(() => {
      done = true;
      wake?.();
    });
    try {
      for (;;) {
        while (head < queue.length) {
          const event = queue[head] as ProgressEvent;
          head += 1;
          yield event;
        }
        queue.length = 0;
        head = 0;
        if (done) break;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = undefined;
      }
      return await running;
    } finally {
      outer?.removeEventListener('abort', forward);
      if (!done) {
        controller.abort(new Error('runStream: the consumer stopped reading'));
        await running;
      }
    }
  }

  #loop(input: string, options: RunOptions, extraSink: ((event: ProgressEvent) => void) | undefined): RunLoop {
    const { config } = this;
    const runId = this.#generateId();
    const offered = this.tools;
    const state: RunState = {
      version: 1,
      runId,
      sessionId: options.sessionId ?? this.#generateId(),
      taskId: runId,
      input,
      status: 'running',
      startedAt: this.#clock.now(),
      messages: [
        { role: 'system', content: RunLoop.systemPrompt(config) },
        { role: 'user', content: input },
      ],
      iteration: 0,
      usage: { inputTokens: 0, outputTokens: 0 },
      spentUsd: 0,
      tracker: null,
      log: null,
      toolsUsed: [],
      failureStreaks: {},
      round: null,
      lastSeq: 0,
      windDown: null,
      extendedMs: 0,
      approached: [],
    };
    return new RunLoop(this.#context(offered, options, extraSink, state), state);
  }

  #context(offered: Tool[], options: RunOptions, extraSink: ((event: ProgressEvent) => void) | undefined, state: RunState): LoopContext {
    const deps = this.#deps;
    const onInternal = deps.onInternalError;
    const reporter = deps.progressReporter ?? new NullReporter();
    const onTimeout =
      deps.onTimeout === 'model' ? modelTimeoutObserver(this.providers, () => state.messages, this.config.model) : deps.onTimeout;
    const ctx: LoopContext = {
      config: this.config,
      registry: this.providers,
      tools: new Map(offered.map((t) => [t.name, t])),
      toolSpecs: offered.map(toolSpec),
      clock: this.#clock,
      sinks: [reporter, ...(deps.sinks ?? [])],
      onTimeout,
      checkpointer: deps.checkpointStore,
      onInternalError: (error, where) => {
        try {
          onInternal?.(error, where);
        } catch {
          // The error callback may not break the run either.
        }
      },
      stream: options.stream ?? false,
      signal: options.signal,
    };
    if (extraSink !== undefined) ctx.extraSink = extraSink;
    return ctx;
  }
}
