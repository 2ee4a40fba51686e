import {
  createRedactor,
  describeIssues,
  limitIssues,
  MAX_REPORTED_ISSUES,
  MAX_VALIDATION_ISSUES,
  planItemsSchema,
  safeStringify,
  toValidationIssues,
  type PlanItem,
  type RedactOptions,
  type Redactor,
  type ValidationIssue,
} from '@headway/protocol';
import { cutText, detach, errorMessage, formatCount, oneLine, validateUntrusted } from '@headway/protocol/internal';
import { argsText } from './args-text.js';
import { ReportError } from './report-error.js';
import {
  ARGS_MAX_CHARS,
  BRIEF_MAX_CHARS,
  NAME_MAX_CHARS,
  SUMMARY_MAX_FAILURES,
  SUMMARY_MAX_TOOLS,
  TEXT_MAX_CHARS,
  entrySchema,
  toolCallLogStateSchema,
  type OmittedSummary,
  type TextEntry,
  type ToolCallEntry,
  type ToolCallLogEntry,
  type ToolCallLogState,
  type ToolTally,
} from './tool-call-log-state.js';

/** Options of {@link ToolCallLog}. */
export interface ToolCallLogOptions {
  /**
   * Entries kept in full (default 200, at least 2). Past it the log keeps the first
   * `keepFirst` and the most recent `maxEntries - keepFirst`, and only counts the middle.
   */
  maxEntries?: number;
  /** How many of the run's first entries are always kept (default a quarter of `maxEntries`, at least 1). */
  keepFirst?: number;
  /** How tool arguments are redacted (protocol's `redact`: secret-named keys and secret-shaped text by default). */
  redact?: RedactOptions;
}

/** A finished tool call, as the agent loop reports it to {@link ToolCallLog.recordToolCall}. */
export interface ToolCallRecord {
  /** The agent loop's iteration the call was made in (from 1); the previous entry's when missing or invalid. */
  iteration?: number;
  name: string;
  args: unknown;
  /**
   * True when `args` is already a copy made by protocol's `createRedactor` with this log's
   * `redact` options (a bridge that redacted the arguments for its `tool.executing` event): the
   * log writes them as they are instead of redacting them a second time. Anything else
   * (missing, not `true`) has the log redact them.
   */
  argsRedacted?: boolean;
  result: unknown;
  ok: boolean;
  durationMs: number;
}

/** Text the model wrote, as reported to {@link ToolCallLog.recordText}. */
export interface TextRecord {
  /** The agent loop's iteration the text was written in (from 1); the previous entry's when missing or invalid. */
  iteration?: number;
  text: string;
}

/** Default of {@link ToolCallLogOptions.maxEntries}. */
export const DEFAULT_MAX_ENTRIES = 200;

function resultText(result: unknown): string {
  if (typeof result === 'string') return result;
  if (result === undefined) return '';
  if (result instanceof Error) return result.message;
  return safeStringify(result) ?? '';
}

/**
 * `read(value, context)`, or `fallback` when reading throws. The readers are module functions and
 * take what they read as arguments: a closure per field would be allocated on every record.
 */
function guarded<T, C>(read: (value: T, context: C) => string, value: T, context: C, fallback: string): string {
  try {
    return read(value, context);
  } catch {
    return fallback;
  }
}

/** A recorded call's name as the log keeps it. */
function nameText(name: unknown): string {
  return detach(cutText(String(name), NAME_MAX_CHARS));
}

/**
 * A recorded call's arguments as the log keeps them: redacted (unless the caller already did,
 * `argsRedacted`), as JSON, cut. `call.args` and `call.argsRedacted` are read here, inside the guard.
 */
function recordedArgsText(call: ToolCallRecord, redactArgs: Redactor): string {
  const args = call.args;
  return detach(argsText(call.argsRedacted === true ? args : redactArgs(args), ARGS_MAX_CHARS));
}

/** A recorded call's result as the log keeps it (`call.result` read here, inside the guard). */
function resultBrief(call: ToolCallRecord): string {
  return detach(cutText(resultText(call.result), BRIEF_MAX_CHARS));
}

/** Model text as the log reads it (`t.text` read here, inside the guard). */
function recordText(t: TextRecord): string {
  return (typeof t.text === 'string' ? t.text : String(t.text)).trim();
}

/** Whether a record's `iteration` can be used. */
function validIteration(n: unknown): n is number {
  return typeof n === 'number' && Number.isFinite(n) && n >= 0;
}

function finiteOr(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : fallback;
}

interface MutableSummary {
  entries: number;
  toolCalls: number;
  texts: number;
  firstIteration: number;
  lastIteration: number;
  tools: Map<string, ToolTally>;
  otherTools: { calls: number; failures: number } | undefined;
  failureSamples: ToolCallEntry[];
}

/** A one-line description of a call: `search({"query":"auth"})`. */
export function describeCall(entry: Pick<ToolCallEntry, 'name' | 'args'>): string {
  return `${entry.name}(${entry.args})`;
}

/**
 * Bad entries a restore validates before it stops counting: with the first issues kept, the
 * rest only add to a count, and zod's failure path costs about 5 µs an entry (a hostile state of
 * 25,000 bad entries took 175 ms to count exactly).
 */
const MAX_BAD_ENTRIES_COUNTED = 1_000;

/**
 * Issues of the bad entries of a saved log's `head` and `recent`: at most MAX_REPORTED_ISSUES,
 * then how many more. Once MAX_BAD_ENTRIES_COUNTED bad entries were seen, the rest are not
 * validated and the count says "at least", with how many entries were checked.
 */
function badEntries(state: unknown): ValidationIssue[] {
  const kept: ValidationIssue[] = [];
  let more = 0;
  let bad = 0;
  let checked = 0;
  let total = 0;
  try {
    if (typeof state !== 'object' || state === null) return [];
    const { head, recent } = state as { head?: unknown; recent?: unknown };
    for (const [name, list] of [
      ['head', head],
      ['recent', recent],
    ] as const) {
      if (!Array.isArray(list)) continue;
      const entries = list as unknown[];
      total += entries.length;
      for (let i = 0; i < entries.length && bad < MAX_BAD_ENTRIES_COUNTED; i++) {
        checked++;
        const result = entrySchema.safeParse(entries[i]);
        if (result.success) continue;
        bad++;
        if (kept.length >= MAX_REPORTED_ISSUES) {
          // Only counted: as many as toValidationIssues would have turned into issues.
          more += Math.min(result.error.issues.length, MAX_VALIDATION_ISSUES);
          continue;
        }
        for (const issue of toValidationIssues(result.error)) {
          if (kept.length < MAX_REPORTED_ISSUES)
            kept.push({
              path: `${name}[${String(i)}]${issue.path === '' || issue.path.startsWith('[') ? '' : '.'}${issue.path}`,
              message: issue.message,
            });
          else more++;
        }
      }
    }
  } catch {
    // Unreadable state: the full validation says so.
    return [];
  }
  if (checked === total) return limitIssues(kept, { total: kept.length + more });
  // Stopped early (1,000 bad entries: the 20 issues are kept and more were counted): the count is a floor.
  return [
    ...kept,
    {
      path: '',
      message: `and at least ${String(more)} more issues (validation stopped after ${String(checked)} of ${String(total)} entries)`,
    },
  ];
}

/** Most entries a saved log may hold, whatever its `maxEntries` says. */
const MAX_STATE_ENTRIES = 1_000_000;

/** An issue when a saved log holds more entries than its own bound allows (read without trusting the state). */
function oversizedState(state: unknown): { path: string; message: string } | undefined {
  try {
    if (typeof state !== 'object' || state === null) return undefined;
    const { maxEntries, head, recent } = state as { maxEntries?: unknown; head?: unknown; recent?: unknown };
    const held = (Array.isArray(head) ? head.length : 0) + (Array.isArray(recent) ? recent.length : 0);
    const bound =
      typeof maxEntries === 'number' && Number.isInteger(maxEntries) && maxEntries > 0
        ? Math.min(maxEntries, MAX_STATE_ENTRIES)
        : MAX_STATE_ENTRIES;
    return held > bound ? { path: 'recent', message: `head and recent hold ${held} entries, more than ${bound}` } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The record of what an agent run did, kept so that a run that stops short can say what it
 * did: every tool call (`{ iteration, name, args, resultBrief, ok, durationMs }`, arguments
 * passed through protocol's `redact` and cut to 200 characters of JSON, results to their
 * first 500 characters) and the model's own text between calls (cut to 1000 characters).
 * Results and text are kept as the model saw them — redacting them would garble the very
 * data a report must carry (`token: string` in code reads as a secret); sinks that write
 * a report out redact it there, as they do every event.
 *
 * Bounded: past `maxEntries` it keeps the first and the most recent entries and folds the
 * middle into counts per tool and a few failure samples, so its size does not grow with
 * the run (about 0.4 MB of JSON for the default 200 entries in the worst case; see the
 * README for measured numbers). Recording never throws.
 *
 * @example
 * ```ts
 * const log = new ToolCallLog();
 * log.recordText({ iteration: 1, text: 'Plan:\n1. Find the auth middleware\n2. Read it' });
 * log.recordToolCall({ iteration: 1, name: 'search', args: { query: 'auth' }, result: 'Found 15 matching records', ok: true, durationMs: 42 });
 * log.activityLog(); // ['[iteration 1] (model) Plan: 1. Find the auth middleware 2. Read it', '[iteration 1] search({"query":"auth"}) → Found 15 matching records']
 * const copy = ToolCallLog.fromJSON(JSON.parse(JSON.stringify(log)));
 * ```
 */
export class ToolCallLog {
  /** Entries kept in full. */
  readonly maxEntries: number;
  /** First entries always kept. */
  readonly keepFirst: number;
  readonly #redactOptions: RedactOptions | undefined;
  readonly #redactArgs: Redactor;
  readonly #head: ToolCallLogEntry[] = [];
  readonly #ring: ToolCallLogEntry[] = [];
  #ringStart = 0;
  #omitted: MutableSummary | undefined;
  #toolCallCount = 0;
  #textCount = 0;
  #lastIteration = 0;
  #plan: readonly PlanItem[] | undefined;

  /**
   * @throws {ReportError} `REPORT_INVALID_OPTIONS` when `maxEntries` or `keepFirst` is impossible.
   * @throws {HeadwayError} `REDACT_INVALID_PATH` when a redaction path cannot be parsed.
   */
  constructor(options: ToolCallLogOptions = {}) {
    const maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
    if (!Number.isInteger(maxEntries) || maxEntries < 2) {
      throw new ReportError(
        'REPORT_INVALID_OPTIONS',
        `ToolCallLog: maxEntries must be an integer of at least 2, got ${String(maxEntries)}`,
        { issues: [{ path: 'maxEntries', message: 'must be an integer of at least 2' }] },
      );
    }
    const keepFirst = options.keepFirst ?? Math.max(1, Math.floor(maxEntries / 4));
    if (!Number.isInteger(keepFirst) || keepFirst < 1 || keepFirst >= maxEntries) {
      throw new ReportError(
        'REPORT_INVALID_OPTIONS',
        `ToolCallLog: keepFirst must be an integer from 1 to ${maxEntries - 1}, got ${String(keepFirst)}`,
        { issues: [{ path: 'keepFirst', message: `must be an integer from 1 to ${maxEntries - 1}` }] },
      );
    }
    this.maxEntries = maxEntries;
    this.keepFirst = keepFirst;
    this.#redactOptions = options.redact;
    this.#redactArgs = createRedactor(options.redact);
  }

  /** Tool calls recorded so far, the summarised ones included. */
  get toolCallCount(): number {
    return this.#toolCallCount;
  }

  /** Pieces of model text recorded so far, the summarised ones included. */
  get textCount(): number {
    return this.#textCount;
  }

  /** True when nothing has been recorded. */
  get isEmpty(): boolean {
    return this.#toolCallCount + this.#textCount === 0;
  }

  /** Records a finished tool call. Never throws: unreadable values are recorded as such. */
  recordToolCall(call: ToolCallRecord): void {
    // Typed callers can still pass anything from plain JavaScript; read the fields as unknown.
    const name: unknown = call.name;
    const ok: unknown = call.ok;
    const iteration = this.#iterationOf(call);
    const entry: ToolCallEntry = Object.freeze({
      kind: 'tool',
      iteration,
      name: guarded(nameText, name, undefined, '[unreadable name]'),
      // Read now, so a caller that changes its arguments object later changes nothing in the log.
      args: guarded(recordedArgsText, call, this.#redactArgs, '[unreadable args]'),
      resultBrief: guarded(resultBrief, call, undefined, '[unreadable result]'),
      ok: ok === true,
      durationMs: finiteOr(call.durationMs, 0),
    });
    this.#toolCallCount += 1;
    this.#push(entry);
  }

  /** Records text the model wrote between tool calls; blank text is ignored. */
  recordText(t: TextRecord): void {
    const text = guarded(recordText, t, undefined, '');
    if (text === '') return;
    const entry: TextEntry = Object.freeze({
      kind: 'text',
      iteration: this.#iterationOf(t),
      text: detach(cutText(text, TEXT_MAX_CHARS)),
    });
    this.#textCount += 1;
    this.#push(entry);
  }

  /**
   * Records the agent's plan as it stands now (the whole list; it replaces the previous one).
   * The progress report's Completed Work and Not Started / Remaining use the latest plan.
   * A plan that does not validate against `planItemsSchema` is ignored; returns whether it was kept.
   */
  recordPlan(items: readonly PlanItem[]): boolean {
    let parsed;
    try {
      parsed = planItemsSchema.safeParse(items);
    } catch {
      return false;
    }
    if (!parsed.success) return false;
    this.#plan = Object.freeze(parsed.data.map((item) => Object.freeze({ ...item })));
    return true;
  }

  /** The latest plan recorded with {@link recordPlan}, or `undefined`. */
  get plan(): readonly PlanItem[] | undefined {
    return this.#plan;
  }

  /** The entries kept in full, oldest first (the summarised middle is in {@link omitted}). */
  entries(): readonly ToolCallLogEntry[] {
    return [...this.#head, ...this.#recent()];
  }

  /** The first entries kept, then (when the middle was summarised) the most recent ones. */
  parts(): { head: readonly ToolCallLogEntry[]; omitted: OmittedSummary | undefined; recent: readonly ToolCallLogEntry[] } {
    return { head: [...this.#head], omitted: this.omitted, recent: this.#recent() };
  }

  /** Counts of what was dropped from the middle of a long run, or `undefined` when nothing was. */
  get omitted(): OmittedSummary | undefined {
    const o = this.#omitted;
    if (o === undefined) return undefined;
    const summary: OmittedSummary = {
      entries: o.entries,
      toolCalls: o.toolCalls,
      texts: o.texts,
      firstIteration: o.firstIteration,
      lastIteration: o.lastIteration,
      tools: [...o.tools.values()].map((t) => ({ ...t })),
      failureSamples: [...o.failureSamples],
    };
    if (o.otherTools !== undefined) summary.otherTools = { ...o.otherTools };
    return summary;
  }

  /**
   * One line per kept entry, for prompts and people:
   * `[iteration 3] search({"query":"auth"}) → Found 15 matching records…`; failed calls read
   * `→ failed: …`, model text `(model) …`, and the summarised middle one line of counts.
   * Each line is cut to `maxLineLength` characters.
   */
  activityLog(maxLineLength = 150): string[] {
    const max = Number.isFinite(maxLineLength) ? Math.max(1, Math.floor(maxLineLength)) : 150;
    const { head, omitted, recent } = this.parts();
    const lines = head.map((e) => cutText(activityLine(e), max));
    if (omitted !== undefined) lines.push(cutText(omittedLine(omitted), max));
    for (const e of recent) lines.push(cutText(activityLine(e), max));
    return lines;
  }

  /** Plain JSON (see {@link ToolCallLogState}); `ToolCallLog.fromJSON` restores it. */
  toJSON(): ToolCallLogState {
    const state: ToolCallLogState = {
      version: 1,
      maxEntries: this.maxEntries,
      keepFirst: this.keepFirst,
      toolCallCount: this.#toolCallCount,
      textCount: this.#textCount,
      head: this.#head.map((e) => ({ ...e })),
      recent: this.#recent().map((e) => ({ ...e })),
    };
    if (this.#redactOptions !== undefined) {
      const r = this.#redactOptions;
      const redact: NonNullable<ToolCallLogState['redact']> = {};
      if (r.paths !== undefined) redact.paths = [...r.paths];
      if (r.censor !== undefined) redact.censor = r.censor;
      if (r.secretKeys !== undefined) redact.secretKeys = r.secretKeys;
      state.redact = redact;
    }
    const omitted = this.omitted;
    if (omitted !== undefined) state.omitted = { ...omitted, failureSamples: omitted.failureSamples.map((e) => ({ ...e })) };
    if (this.#plan !== undefined) state.plan = this.#plan.map((item) => ({ ...item }));
    return state;
  }

  /**
   * Restores a log saved with {@link ToolCallLog.toJSON} (e.g. from a checkpoint), with the
   * same bounds and redaction, ready to record more.
   *
   * @throws {ReportError} `REPORT_INVALID_LOG_STATE` whose message names every offending path.
   */
  static fromJSON(state: unknown): ToolCallLog {
    // Refused before validation: zod would make issues for every bad entry of a huge list.
    const oversized = oversizedState(state);
    if (oversized !== undefined)
      throw new ReportError('REPORT_INVALID_LOG_STATE', `Invalid tool-call log state: ${describeIssues([oversized])}`, {
        issues: [oversized],
      });
    // Entries one by one, keeping only the first issues: validating a list of 50,000 bad
    // entries at once would build and hold 100,000 issue objects.
    const entryIssues = badEntries(state);
    if (entryIssues.length > 0)
      throw new ReportError('REPORT_INVALID_LOG_STATE', `Invalid tool-call log state: ${describeIssues(entryIssues)}`, {
        issues: entryIssues,
      });
    const result = validateUntrusted(toolCallLogStateSchema, state);
    if (!result.success) {
      const { issues, cause } = result;
      throw new ReportError('REPORT_INVALID_LOG_STATE', `Invalid tool-call log state: ${describeIssues(issues)}`, { issues, cause });
    }
    const s = result.data;
    let log: ToolCallLog;
    try {
      const options: ToolCallLogOptions = { maxEntries: s.maxEntries, keepFirst: s.keepFirst };
      if (s.redact !== undefined) options.redact = s.redact;
      log = new ToolCallLog(options);
    } catch (cause) {
      const issues = [{ path: 'redact.paths', message: errorMessage(cause, 300) }];
      throw new ReportError('REPORT_INVALID_LOG_STATE', `Invalid tool-call log state: ${describeIssues(issues)}`, { issues, cause });
    }
    log.#restore(s);
    return log;
  }

  #restore(s: ToolCallLogState): void {
    for (const e of s.head) this.#head.push(Object.freeze({ ...e }));
    for (const e of s.recent) this.#ring.push(Object.freeze({ ...e }));
    this.#toolCallCount = s.toolCallCount;
    this.#textCount = s.textCount;
    if (s.plan !== undefined) this.#plan = Object.freeze(s.plan.map((item) => Object.freeze({ ...item })));
    if (s.omitted !== undefined) {
      const o = s.omitted;
      this.#omitted = {
        entries: o.entries,
        toolCalls: o.toolCalls,
        texts: o.texts,
        firstIteration: o.firstIteration,
        lastIteration: o.lastIteration,
        tools: new Map(o.tools.map((t) => [t.name, { ...t }])),
        otherTools: o.otherTools === undefined ? undefined : { ...o.otherTools },
        failureSamples: o.failureSamples.map((e) => Object.freeze({ ...e })),
      };
    }
    const last = this.#ring.at(-1) ?? this.#head.at(-1);
    this.#lastIteration = last?.iteration ?? 0;
  }

  /** The record's `iteration`, else the previous entry's; read without trusting the record. */
  #iterationOf(record: { iteration?: unknown }): number {
    let n = this.#lastIteration;
    try {
      const { iteration } = record;
      if (validIteration(iteration)) n = Math.floor(iteration);
    } catch {
      // A throwing getter: keep the previous entry's iteration.
    }
    this.#lastIteration = n;
    return n;
  }

  #recent(): ToolCallLogEntry[] {
    return [...this.#ring.slice(this.#ringStart), ...this.#ring.slice(0, this.#ringStart)];
  }

  #push(entry: ToolCallLogEntry): void {
    if (this.#head.length < this.keepFirst) {
      this.#head.push(entry);
      return;
    }
    const room = this.maxEntries - this.keepFirst;
    if (this.#ring.length < room) {
      this.#ring.push(entry);
      return;
    }
    const evicted = this.#ring[this.#ringStart];
    this.#ring[this.#ringStart] = entry;
    this.#ringStart = (this.#ringStart + 1) % room;
    if (evicted !== undefined) this.#omit(evicted);
  }

  #omit(entry: ToolCallLogEntry): void {
    const o: MutableSummary = (this.#omitted ??= {
      entries: 0,
      toolCalls: 0,
      texts: 0,
      firstIteration: entry.iteration,
      lastIteration: entry.iteration,
      tools: new Map(),
      otherTools: undefined,
      failureSamples: [],
    });
    o.entries += 1;
    o.lastIteration = entry.iteration;
    if (entry.kind === 'text') {
      o.texts += 1;
      return;
    }
    o.toolCalls += 1;
    const failed = entry.ok ? 0 : 1;
    const tally = o.tools.get(entry.name);
    if (tally !== undefined) {
      tally.calls += 1;
      tally.failures += failed;
    } else if (o.tools.size < SUMMARY_MAX_TOOLS) {
      o.tools.set(entry.name, { name: entry.name, calls: 1, failures: failed });
    } else {
      o.otherTools ??= { calls: 0, failures: 0 };
      o.otherTools.calls += 1;
      o.otherTools.failures += failed;
    }
    if (!entry.ok) {
      o.failureSamples.push(entry);
      if (o.failureSamples.length > SUMMARY_MAX_FAILURES) o.failureSamples.shift();
    }
  }
}

/** `[iteration 3] search({"query":"auth"}) → Found 15…`, uncut. */
function activityLine(entry: ToolCallLogEntry): string {
  if (entry.kind === 'text') return `[iteration ${entry.iteration}] (model) ${oneLine(entry.text)}`;
  const brief = oneLine(entry.resultBrief);
  const outcome = entry.ok ? (brief === '' ? '(empty result)' : brief) : `failed: ${brief === '' ? '(no message)' : brief}`;
  return `[iteration ${entry.iteration}] ${describeCall(entry)} → ${outcome}`;
}

/** Tool counts of a summarised middle: `search ×5,000 (12 failed), read ×4,800`. */
export function describeTallies(omitted: OmittedSummary): string {
  const parts = omitted.tools.map(
    (t) => `${t.name} ×${formatCount(t.calls)}${t.failures > 0 ? ` (${formatCount(t.failures)} failed)` : ''}`,
  );
  const other = omitted.otherTools;
  if (other !== undefined)
    parts.push(`other tools ×${formatCount(other.calls)}${other.failures > 0 ? ` (${formatCount(other.failures)} failed)` : ''}`);
  return parts.join(', ');
}

function omittedLine(o: OmittedSummary): string {
  const what = [`${formatCount(o.toolCalls)} tool calls`];
  if (o.texts > 0) what.push(`${formatCount(o.texts)} notes`);
  const tallies = describeTallies(o);
  return `[iterations ${o.firstIteration}–${o.lastIteration}] ${what.join(' and ')} summarised${tallies === '' ? '' : `: ${tallies}`}`;
}
