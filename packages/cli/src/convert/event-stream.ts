import { DEFAULT_MAX_EVENT_JSON_LENGTH, isTerminalEvent, type Clock, type ProgressEvent, type ProgressEventBody } from '@headway/protocol';
import { resolveClock } from '@headway/protocol/internal';
import { ClaudeCodeConverter, type ConverterOptions } from './claude-code.js';
import { CodexConverter } from './codex.js';
import type { AgentFormat, StreamConverter } from './converter.js';
import { detectFormat } from './detect-format.js';
import { GeminiConverter } from './gemini.js';
import { readHeadwayEvent } from './headway.js';

/** Options of {@link EventStream}. */
export interface EventStreamOptions extends ConverterOptions {
  /** The input's format, or `auto` (default): decided by the first line that tells. */
  from?: AgentFormat | 'auto';
  /** `runId` of the events made from an agent's stream (default: its session or thread id, else `run`). */
  runId?: string;
  /** Clock for events whose line carries no time (default protocol's `systemClock`). */
  clock?: Clock;
  /** @deprecated use `clock`; removed in the next minor. */
  now?: () => number;
  /** Longest line read, in characters (default 4 MiB); a longer one is not understood. */
  maxLineLength?: number;
  /** Told once, at the first line that is not understood, with its line number; later ones are only counted. */
  onWarning?: (message: string) => void;
}

/** A converter for `format`. */
export function createConverter(format: Exclude<AgentFormat, 'headway'>, options: ConverterOptions = {}): StreamConverter {
  if (format === 'claude-code') return new ClaudeCodeConverter(options);
  if (format === 'codex') return new CodexConverter(options);
  return new GeminiConverter(options);
}

/**
 * Lines in, headway progress events out: parses each line, finds the format (`auto`), converts,
 * and stamps each event with `runId`, `seq` (from 1) and `ts`. headway event lines pass through
 * as they are (validated). A line that is not JSON or not understood is counted, and reported once
 * through `onWarning`; it never throws. Nothing is emitted after the run's terminal event.
 *
 * @example
 * ```ts
 * const stream = new EventStream({ from: 'claude-code' });
 * for (const line of lines) for (const event of stream.push(line)) console.log(event.type);
 * for (const event of stream.end()) console.log(event.type);
 * ```
 */
export class EventStream {
  /** Lines that were not understood (not JSON, too long, or not of the format). */
  notUnderstood = 0;
  /** Lines read. */
  lines = 0;
  /** The terminal event, once seen. */
  terminal: ProgressEvent | undefined;
  #format: AgentFormat | undefined;
  #converter: StreamConverter | undefined;
  #runId: string | undefined;
  #seq = 0;
  #warned = false;
  readonly #options: EventStreamOptions;
  readonly #now: () => number;
  readonly #maxLineLength: number;

  constructor(options: EventStreamOptions = {}) {
    this.#options = options;
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- honoured until it is removed
    const clock = resolveClock(options.clock, options.now);
    this.#now = () => clock.now();
    this.#maxLineLength = options.maxLineLength ?? DEFAULT_MAX_EVENT_JSON_LENGTH;
    if (options.from !== undefined && options.from !== 'auto') this.#use(options.from);
  }

  /** The input's format, once known. */
  get format(): AgentFormat | undefined {
    return this.#format;
  }

  /** The events one line gives (often none). */
  push(line: string): ProgressEvent[] {
    this.lines += 1;
    const text = line.trim();
    if (text === '') return [];
    if (text.length > this.#maxLineLength) return this.#notUnderstood(`longer than ${this.#maxLineLength} characters`);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return this.#notUnderstood('not JSON');
    }
    if (this.#format === undefined) {
      const format = detectFormat(value);
      if (format === undefined) return this.#notUnderstood('no known stream format');
      this.#use(format);
    }
    if (this.#format === 'headway') {
      const event = readHeadwayEvent(value);
      if (event === undefined) return this.#notUnderstood('not a headway event');
      return this.#keep([event]);
    }
    const now = this.#now();
    let converted;
    try {
      converted = this.#converter?.convert(value, now);
    } catch {
      converted = undefined;
    }
    if (converted === undefined) return this.#notUnderstood(`not understood as ${this.#format ?? 'any'} stream`);
    return this.#keep(converted.map((c) => this.#stamp(c.body, c.ts ?? now)));
  }

  /** A line over the length limit that was skipped unread: counted like any line not understood. */
  pushTooLong(): ProgressEvent[] {
    this.lines += 1;
    return this.#notUnderstood(`longer than ${this.#maxLineLength} characters`);
  }

  /** The input ended: events that close what is still open. */
  end(): ProgressEvent[] {
    const now = this.#now();
    const closing = this.#converter?.end(now) ?? [];
    return this.#keep(closing.map((c) => this.#stamp(c.body, c.ts ?? now)));
  }

  #use(format: AgentFormat): void {
    this.#format = format;
    if (format !== 'headway') this.#converter = createConverter(format, this.#options);
  }

  #stamp(body: ProgressEventBody, ts: number): ProgressEvent {
    this.#runId ??= this.#options.runId ?? this.#converter?.sessionId ?? 'run';
    this.#seq += 1;
    return stampBody(body, this.#runId, this.#seq, ts);
  }

  #keep(events: ProgressEvent[]): ProgressEvent[] {
    const kept: ProgressEvent[] = [];
    for (const event of events) {
      if (this.terminal !== undefined) break;
      kept.push(event);
      if (isTerminalEvent(event)) this.terminal = event;
    }
    return kept;
  }

  #notUnderstood(why: string): ProgressEvent[] {
    this.notUnderstood += 1;
    if (!this.#warned) {
      this.#warned = true;
      this.#options.onWarning?.(`line ${this.lines}: ${why}; skipped (later lines like it are only counted)`);
    }
    return [];
  }
}

function stampBody(body: ProgressEventBody, runId: string, seq: number, ts: number): ProgressEvent {
  return { ...body, runId, seq, ts };
}
