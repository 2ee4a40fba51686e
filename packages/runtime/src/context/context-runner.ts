import type { ReportInternalError } from '../loop/internal-error-context.js';
import type { TaskHistory, TaskHistoryRun } from '@headway/estimator';
import { errorMessage, isThenable } from '@headway/protocol/internal';
import { ConfigError } from '../loop/config-error.js';
import { isStopSignal } from '../loop/stop-signal.js';
import type { ChatMessage, ToolSpec } from '../provider/provider.js';
import type { ContextAssembly, ContextPart, ContextRunInfo, ContextRunOutcome, ContextIteration } from './context-part.js';

const HOOKS = ['beforeRun', 'beforeIteration', 'assembleContext', 'afterRun'] as const;
type Hook = (typeof HOOKS)[number];
const ROLES = new Set(['system', 'user', 'assistant', 'tool']);

/** A part as the runtime keeps it: its name and hooks read once, so a hostile getter cannot act later. */
export interface ReadPart {
  name: string;
  part: ContextPart;
  hooks: Partial<Record<Hook, (arg: never) => unknown>>;
}

/**
 * Reads `deps.context` once at construction.
 *
 * @throws {ConfigError} `RUNTIME_INVALID_CONFIG` naming `context[i]` when a part is not `{ name, ...hooks }`.
 */
export function readContextParts(parts: readonly ContextPart[] | undefined): readonly ReadPart[] {
  if (parts === undefined) return [];
  if (!Array.isArray(parts)) throw invalid('context', 'expected an array of context parts');
  return parts.map((part: unknown, i): ReadPart => {
    // The plain errors thrown here never leave: the catch turns them into a ConfigError.
    try {
      if (typeof part !== 'object' || part === null)
        throw new Error('expected { name, beforeRun?, beforeIteration?, assembleContext?, afterRun? }');
      const name = (part as { name?: unknown }).name;
      if (typeof name !== 'string' || name === '') throw new Error('name: expected a non-empty string');
      const hooks: ReadPart['hooks'] = {};
      for (const hook of HOOKS) {
        const fn = (part as Record<string, unknown>)[hook];
        if (fn === undefined) continue;
        if (typeof fn !== 'function') throw new Error(`${hook}: expected a function`);
        hooks[hook] = fn as (arg: never) => unknown;
      }
      return { name, part: part as ContextPart, hooks };
    } catch (error) {
      throw invalid(`context[${i}]`, errorMessage(error));
    }
  });
}

/** What a hook returned is unusable: `problem` is `hook: path: what was expected`. */
function badResult(problem: string): ConfigError {
  return new ConfigError('RUNTIME_INVALID_CONTEXT_RESULT', problem);
}

function invalid(path: string, message: string): ConfigError {
  return new ConfigError('RUNTIME_INVALID_CONFIG', `Invalid agent deps: ${path}: ${message}`, { issues: [{ path, message }] });
}

/** A conversation a part returned, checked: new message objects must look like chat messages. */
function checkConversation(value: unknown, before: readonly ChatMessage[]): ChatMessage[] {
  if (!Array.isArray(value)) throw badResult('assembleContext: conversation: expected an array of messages');
  const known = new Set<unknown>(before);
  const out: ChatMessage[] = [];
  for (const [i, m] of (value as unknown[]).entries()) {
    if (!known.has(m)) {
      const msg = m as { role?: unknown; content?: unknown } | null;
      if (typeof msg !== 'object' || msg === null || !ROLES.has(msg.role as string) || typeof msg.content !== 'string') {
        throw badResult(`assembleContext: conversation[${i}]: expected { role, content: string }`);
      }
    }
    out.push(m as ChatMessage);
  }
  return out;
}

/** What assembling one model call's context produced. */
export interface AssembledCall {
  /** Set when a part replaced the run's conversation. */
  conversation: ChatMessage[] | undefined;
  /** The messages the provider gets. */
  messages: ChatMessage[];
  tools: ToolSpec[];
}

/**
 * Runs a run's context parts: each hook of each part in order, each failure reported once
 * (`context.<name>.<hook>`) and that part left out for the rest of the run. A stop of the run
 * (cancel, hard time limit) is passed on, not counted as a part's failure.
 */
export class ContextRunner {
  readonly #parts: readonly ReadPart[];
  readonly #failed = new Set<ReadPart>();
  readonly #onInternalError: ReportInternalError;
  readonly #race: <T>(work: unknown) => Promise<T>;

  constructor(parts: readonly ReadPart[], onInternalError: ReportInternalError, race: <T>(work: unknown) => Promise<T>) {
    this.#parts = parts;
    this.#onInternalError = onInternalError;
    this.#race = race;
  }

  /** True when there is no part: the loop skips every hook. */
  get empty(): boolean {
    return this.#parts.length === 0;
  }

  async #call(part: ReadPart, hook: Hook, arg: unknown, race: <T>(work: unknown) => Promise<T> = this.#race): Promise<unknown> {
    const fn = part.hooks[hook];
    if (fn === undefined || this.#failed.has(part)) return undefined;
    try {
      const value = fn.call(part.part, arg as never);
      return isThenable(value) ? await race(value) : value;
    } catch (error) {
      if (isStopSignal(error)) throw error;
      this.#fail(part, hook, error);
      return undefined;
    }
  }

  #fail(part: ReadPart, hook: Hook, error: unknown): void {
    this.#failed.add(part);
    this.#onInternalError(error, `context.${part.name}.${hook}`);
  }

  /** The parts' advice before the run: their histories, merged. */
  async beforeRun(info: ContextRunInfo): Promise<TaskHistory | undefined> {
    const runs: TaskHistoryRun[] = [];
    let any = false;
    for (const part of this.#parts) {
      const advice = await this.#call(part, 'beforeRun', info);
      if (advice === undefined || advice === null) continue;
      try {
        const history = (advice as { history?: unknown }).history;
        if (history === undefined) continue;
        const list: unknown = typeof history === 'object' && history !== null ? (history as { runs?: unknown }).runs : undefined;
        if (!Array.isArray(list)) throw badResult('beforeRun: history: expected { runs: [...] }');
        for (const run of list as unknown[]) {
          const r = run as { roundtrips?: unknown; durationMs?: unknown } | null;
          const roundtrips = r?.roundtrips;
          const durationMs = r?.durationMs;
          // The estimator validates again; a run it would refuse is left out here, not the whole history.
          if (
            typeof roundtrips === 'number' &&
            Number.isInteger(roundtrips) &&
            roundtrips >= 1 &&
            typeof durationMs === 'number' &&
            Number.isFinite(durationMs) &&
            durationMs >= 0
          ) {
            runs.push({ roundtrips, durationMs });
          }
        }
        any = true;
      } catch (error) {
        this.#fail(part, 'beforeRun', error);
      }
    }
    return any && runs.length > 0 ? { runs } : undefined;
  }

  async beforeIteration(info: ContextIteration): Promise<void> {
    for (const part of this.#parts) await this.#call(part, 'beforeIteration', info);
  }

  /** Every part's `assembleContext` in order; the result is what the provider gets. */
  async assemble(info: ContextIteration, conversation: readonly ChatMessage[], offered: readonly ToolSpec[]): Promise<AssembledCall> {
    let current: readonly ChatMessage[] = conversation;
    let replaced: ChatMessage[] | undefined;
    const system: string[] = [];
    let tools: readonly ToolSpec[] = offered;
    for (const part of this.#parts) {
      if (part.hooks.assembleContext === undefined || this.#failed.has(part)) continue;
      const assembly: ContextAssembly = { ...info, conversation: current, system: system.slice(), tools };
      const result = await this.#call(part, 'assembleContext', assembly);
      if (result === undefined || result === null || this.#failed.has(part)) continue;
      try {
        const r = result as { conversation?: unknown; system?: unknown; tools?: unknown };
        const { conversation: c, system: s, tools: t } = r;
        const nextConversation = c === undefined ? undefined : checkConversation(c, current);
        if (s !== undefined && typeof s !== 'string') throw badResult('assembleContext: system: expected a string');
        let nextTools: ToolSpec[] | undefined;
        if (t !== undefined) {
          if (!Array.isArray(t)) throw badResult('assembleContext: tools: expected an array of tool specs');
          const byName = new Map(tools.map((spec) => [spec.name, spec]));
          nextTools = [];
          for (const spec of t as unknown[]) {
            const name = (spec as { name?: unknown } | null)?.name;
            const known = typeof name === 'string' ? byName.get(name) : undefined;
            if (known !== undefined && !nextTools.includes(known)) nextTools.push(known);
          }
        }
        if (nextConversation !== undefined) current = replaced = nextConversation;
        if (s !== undefined && s !== '') system.push(s);
        if (nextTools !== undefined) tools = nextTools;
      } catch (error) {
        this.#fail(part, 'assembleContext', error);
      }
    }
    return { conversation: replaced, messages: withSystem(current, system), tools: tools.slice() };
  }

  /** Every part's `afterRun`, each bounded by `race` (the run is over: no stop signal applies). */
  async afterRun(outcome: ContextRunOutcome, race: <T>(work: unknown) => Promise<T>): Promise<void> {
    for (const part of this.#parts) await this.#call(part, 'afterRun', outcome, race);
  }
}

/** The messages with extra system text added to the first system message (or a new one first). */
function withSystem(messages: readonly ChatMessage[], extra: readonly string[]): ChatMessage[] {
  if (extra.length === 0) return messages.slice();
  const text = extra.join('\n\n');
  const first = messages[0];
  if (first?.role === 'system') return [{ role: 'system', content: `${first.content}\n\n${text}` }, ...messages.slice(1)];
  return [{ role: 'system', content: text }, ...messages];
}
