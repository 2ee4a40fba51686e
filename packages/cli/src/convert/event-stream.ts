import {
  createRedactor,
  DEFAULT_MAX_EVENT_JSON_LENGTH,
  isTerminalEvent,
  type Clock,
  type ProgressEvent,
  type ProgressEventBody,
  type Redactor,
  systemClock,
} from '@headway/protocol';
import { ClaudeCodeConverter, type ConverterOptions } from './claude-code.js';
import { CodexConverter } from './codex.js';
import type { AgentFormat, ConvertedEvent, StreamConverter } from './converter.js';
import { detectFormat } from './detect-format.js';
import { GeminiConverter } from './gemini.js';
import { readHeadwayEvent } from './headway.js';
import { tooDeepAt } from './json-nesting.js';
import { fitPlanItems } from './plan-items.js';

/** Options of {@link EventStream}. */
export interface EventStreamOptions extends ConverterOptions {
  /** The input's format, or `auto` (default): decided by the first line that tells. */
  from?: AgentFormat | 'auto';
  /** `runId` of the events made from an agent's stream (default: its session or thread id, else `run`). */
  runId?: string;
  /** Clock for events whose line carries no time (default protocol's `systemClock`). */
  clock?: Clock;
  /** Longest line read, in characters (default 4 MiB); a longer one is not understood. */
  maxLineLength?: number;
  /**
   * Deepest nesting of a line read, in arrays and objects (default {@link MAX_LINE_DEPTH});
   * a deeper line is not understood, and is never parsed. `Infinity` turns the check off.
   */
  maxLineDepth?: number;
  /**
   * Told once, at the first line that is not understood, with its line number; later ones are
   * only counted. A line nested too deep is told apart: once, at the first such line.
   */
  onWarning?: (message: string) => void;
  /**
   * Where the time of a line that carries none comes from: `live` (default) the clock, as the line
   * is read; `stream` the stream's own order: 1 s after the event before it (the
   * first at the clock's time), so a converted file keeps the pace of the run, not of the conversion.
   * Either way times never go backwards.
   */
  timing?: 'live' | 'stream';
  /**
   * Replace secrets (API keys, passwords, Bearer tokens, URL passwords …) in tool inputs, results
   * and text with `[REDACTED]`, with protocol's redactor (default true).
   */
  redact?: boolean;
}

/**
 * The deepest nesting (arrays and objects) of a line {@link EventStream} reads. Real agent lines
 * nest a few levels (at most 7 in this package's Claude Code, Codex and gemini-cli fixtures), and
 * an event keeps a tool input to 20 levels (the line around it adds 4), so a deeper line loses
 * nothing an event would show but the event itself. The same bound as the AG-UI bridge's
 * request bodies.
 */
export const MAX_LINE_DEPTH = 100;

/** In `stream` timing, the time between a line that carries no time and the event before it. */
const STREAM_STEP_MS = 1000;

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
  #warnedDeep = false;
  #lastTs: number | undefined;
  /** `stream` timing: the time given to the last line read. */
  #lastLineTime: number | undefined;
  /** True once a line carried its own time (gemini-cli, Claude Code transcripts). */
  timed = false;
  readonly #redact: Redactor | undefined;
  readonly #options: EventStreamOptions;
  readonly #now: () => number;
  readonly #maxLineLength: number;
  readonly #maxLineDepth: number;

  constructor(options: EventStreamOptions = {}) {
    this.#options = options;
    const clock = options.clock ?? systemClock;
    this.#now = () => clock.now();
    this.#maxLineLength = options.maxLineLength ?? DEFAULT_MAX_EVENT_JSON_LENGTH;
    this.#maxLineDepth = options.maxLineDepth ?? MAX_LINE_DEPTH;
    this.#redact = options.redact === false ? undefined : createRedactor();
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
    const deep = this.#maxLineDepth === Infinity ? undefined : tooDeepAt(text, this.#maxLineDepth);
    if (deep !== undefined) return this.#tooDeep(deep + line.search(/\S/));
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
      return this.#keep([this.#redact === undefined ? event : this.#redact(event)]);
    }
    const now = this.#lineTime();
    let converted;
    try {
      converted = this.#converter?.convert(value, now);
    } catch {
      converted = undefined;
    }
    if (converted === undefined) return this.#notUnderstood(`not understood as ${this.#format ?? 'any'} stream`);
    const stamped = converted.map((c) => this.#stamp(c.body, c.ts ?? now, c.ts !== undefined));
    this.#lineTimed(converted);
    return this.#keep(stamped);
  }

  /** A line over the length limit that was skipped unread: counted like any line not understood. */
  pushTooLong(): ProgressEvent[] {
    this.lines += 1;
    return this.#notUnderstood(`longer than ${this.#maxLineLength} characters`);
  }

  /** The input ended: events that close what is still open. */
  end(): ProgressEvent[] {
    const now = this.#lineTime();
    const closing = this.#converter?.end(now) ?? [];
    return this.#keep(closing.map((c) => this.#stamp(c.body, c.ts ?? now, c.ts !== undefined)));
  }

  #use(format: AgentFormat): void {
    this.#format = format;
    if (format !== 'headway') this.#converter = createConverter(format, this.#options);
  }

  /** The time of a line: the clock's (`live`), or the stream's own pace (`stream`). */
  #lineTime(): number {
    if (this.#options.timing !== 'stream') return this.#now();
    const time = this.#lastLineTime === undefined ? this.#now() : this.#lastLineTime + STREAM_STEP_MS;
    this.#lastLineTime = time;
    return time;
  }

  /** `stream` timing: a line that carried its own time sets the pace of the lines after it. */
  #lineTimed(events: readonly ConvertedEvent[]): void {
    if (this.#options.timing === 'stream' && events.some((c) => c.ts !== undefined) && this.#lastTs !== undefined) {
      this.#lastLineTime = this.#lastTs;
    }
  }

  #stamp(body: ProgressEventBody, ts: number, own: boolean): ProgressEvent {
    // An empty id names no run: the protocol's runId is never empty.
    this.#runId ??= nonEmpty(this.#options.runId) ?? nonEmpty(this.#converter?.sessionId) ?? 'run';
    this.#seq += 1;
    if (own) this.timed = true;
    const time = Math.max(0, this.#lastTs ?? 0, ts);
    this.#lastTs = time;
    return stampBody(this.#redact === undefined ? body : redactBody(this.#redact, body), this.#runId, this.#seq, time);
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

  /** A line nested deeper than the bound (its bracket at `at` opens one level too many): not parsed, counted, told once. */
  #tooDeep(at: number): ProgressEvent[] {
    this.notUnderstood += 1;
    if (!this.#warnedDeep) {
      this.#warnedDeep = true;
      this.#options.onWarning?.(
        `line ${this.lines}: nested deeper than ${this.#maxLineDepth} levels (arrays and objects) at character ${at + 1}; skipped (later lines like it are only counted)`,
      );
    }
    return [];
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

/** `body` with its secrets redacted, and a plan's items fitted to the protocol again (a redacted text can grow, two ids can become one). */
function redactBody(redact: Redactor, body: ProgressEventBody): ProgressEventBody {
  const redacted = redact(body);
  return redacted.type === 'plan.updated' ? { ...redacted, items: fitPlanItems(redacted.items) } : redacted;
}

function nonEmpty(text: string | undefined): string | undefined {
  return text === '' ? undefined : text;
}

function stampBody(body: ProgressEventBody, runId: string, seq: number, ts: number): ProgressEvent {
  return { ...body, runId, seq, ts };
}
