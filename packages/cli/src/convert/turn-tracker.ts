import { toolResultPreview, type ModelUsage } from '@headway/protocol';
import { boundedValue } from './bounded-value.js';
import type { ConvertedEvent } from './converter.js';

/** Longest tool-result preview a converter puts in `tool.completed` (the CLI view cuts it further). */
const PREVIEW_LENGTH = 200;
/** Tool calls remembered while running; a stream that never finishes them cannot grow memory without bound. */
const MAX_RUNNING_TOOLS = 1000;

/**
 * What every converter keeps across lines: the open model turn (a `step.started` … `step.finished`
 * pair named `turn N`, plus `iteration` when the cap is known) and the running tool calls by id, so
 * `tool.completed` gets its name and duration.
 */
export class TurnTracker {
  turns = 0;
  #open: { step: string; startedAt: number } | undefined;
  readonly #tools = new Map<string, { name: string; startedAt: number }>();
  readonly #maxTurns: number | undefined;
  readonly #redact: boolean;

  /** `redact: false` keeps secret-shaped text in tool-result previews (`--keep-secrets`). */
  constructor(maxTurns?: number, redact = true) {
    this.#maxTurns = maxTurns;
    this.#redact = redact;
  }

  get inTurn(): boolean {
    return this.#open !== undefined;
  }

  get runningTools(): number {
    return this.#tools.size;
  }

  /** Closes the open turn, if any, and starts the next. */
  start(now: number, ts: number | undefined, model?: string): ConvertedEvent[] {
    const out = this.finish(now, ts);
    this.turns += 1;
    const step = `turn ${this.turns}`;
    this.#open = { step, startedAt: ts ?? now };
    if (this.#maxTurns !== undefined) out.push(at({ type: 'iteration', index: this.turns - 1, max: this.#maxTurns }, ts));
    out.push(at({ type: 'step.started', step, ...(model === undefined ? {} : { model }) }, ts));
    return out;
  }

  /** Closes the open turn (with its token usage when the stream reports it). */
  finish(now: number, ts: number | undefined, usage?: ModelUsage): ConvertedEvent[] {
    const open = this.#open;
    if (open === undefined) return [];
    this.#open = undefined;
    const durationMs = Math.max(0, (ts ?? now) - open.startedAt);
    return [at({ type: 'step.finished', step: open.step, durationMs, ...(usage === undefined ? {} : { usage }) }, ts)];
  }

  /** A tool call began. */
  toolStart(id: string | undefined, name: string, args: unknown, now: number, ts: number | undefined): ConvertedEvent[] {
    if (id !== undefined && this.#tools.size < MAX_RUNNING_TOOLS) this.#tools.set(id, { name, startedAt: ts ?? now });
    return [
      at(
        {
          type: 'tool.executing',
          toolName: name,
          ...(id === undefined ? {} : { toolCallId: id }),
          ...(args === undefined ? {} : { args: boundedValue(args) }),
        },
        ts,
      ),
    ];
  }

  /** The tool call `id` ended; `name` is used when its start was not seen. */
  toolDone(id: string | undefined, ok: boolean, output: unknown, now: number, ts: number | undefined, name?: string): ConvertedEvent[] {
    const started = id === undefined ? undefined : this.#tools.get(id);
    if (id !== undefined) this.#tools.delete(id);
    const durationMs = started === undefined ? 0 : Math.max(0, (ts ?? now) - started.startedAt);
    const preview = output === undefined ? undefined : toolResultPreview(output, PREVIEW_LENGTH, this.#redact ? {} : { redact: false });
    return [
      at(
        {
          type: 'tool.completed',
          toolName: started?.name ?? name ?? 'tool',
          ...(id === undefined ? {} : { toolCallId: id }),
          durationMs,
          ok,
          ...(preview === undefined || preview === '' ? {} : { preview }),
        },
        ts,
      ),
    ];
  }

  /** True when the tool call `id` was seen starting and has not ended. */
  isRunning(id: string): boolean {
    return this.#tools.has(id);
  }
}

/** A converted event with the line's time, when it had one. */
export function at(body: ConvertedEvent['body'], ts: number | undefined): ConvertedEvent {
  return ts === undefined ? { body } : { body, ts };
}
