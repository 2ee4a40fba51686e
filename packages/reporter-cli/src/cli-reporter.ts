import { format } from 'node:util';
import {
  MAX_PLAN_ITEMS,
  redactString,
  toolResultPreview,
  type Clock,
  type InternalErrorContext,
  type OnInternalError,
  type ProgressEvent,
  type ProgressReporter,
  systemClock,
} from '@headway/protocol';
import { CANCELLED_PREFIX } from '@headway/protocol/internal';
import { capText, MAX_LIVE_TEXT } from './bounded-text.js';
import pc from 'picocolors';
import type { Colors } from './colors.js';
import { noticeOf } from './event-text.js';
import { LiveState, type LiveNotice, type LiveOutcome } from './live-state.js';
import { LiveView } from './live-view.js';
import { plainEventText, plainLine } from './plain-lines.js';
import { renderReportMarkdown } from './report-markdown.js';
import { isSet, resolveColor, resolveMode, type CLIReporterMode, type Environment } from './resolve-mode.js';
import { TerminalOutput } from './terminal-output.js';
import type { TerminalStream } from './terminal-stream.js';
import { oneLine } from './terminal-text.js';

/** Options of {@link CLIReporter}. */
export interface CLIReporterOptions {
  /** Where to draw (default `process.stderr`, so stdout stays the program's own). */
  stream?: TerminalStream;
  /** `auto` (default): `plain` when the stream is not a TTY, `CI` is set or `TERM=dumb`; `live` otherwise. */
  mode?: CLIReporterMode;
  /** Environment read for `CI`, `TERM`, `NO_COLOR`, `FORCE_COLOR`, `HEADWAY_VERBOSE` (default `process.env`). */
  env?: Environment;
  /** Colours in the live block; default from `NO_COLOR`/`FORCE_COLOR`/TTY. Plain lines are never coloured. */
  color?: boolean;
  /**
   * Clock for elapsed times, tool durations and the timer that animates the live block (default
   * protocol's `systemClock`; the animation's timer never keeps the process alive).
   */
  clock?: Clock;
  /**
   * Also shows what only matters when debugging a run, such as `checkpoint saved: <id>` after
   * every iteration (default: `HEADWAY_VERBOSE` is set in `env`, to anything but `0`/`false`).
   * The JSON and audit logs keep those events either way.
   */
  verbose?: boolean;
  /** Longest tool-result preview, in characters (default 80). */
  previewLength?: number;
  /** Finished tools kept in the live block (default 3). */
  recentTools?: number;
  /** Bytes the stream may hold unwritten before further output is dropped (default 1 MiB). */
  maxBufferedBytes?: number;
  /**
   * Redaction of everything printed (protocol's `redactString`: API keys, bearer tokens,
   * private keys, URL credentials, `DB_PASSWORD=…`-style values), so plain output can go to CI
   * logs. On by default; `{ censor }` sets the replacement (default `[REDACTED]`); `false`
   * prints text exactly as given.
   */
  redact?: { censor?: string } | false;
  /**
   * Told about failures inside the reporter (a broken stream, a rendering bug). They never
   * reach the caller; after a stream failure the reporter writes nothing more.
   */
  onInternalError?: OnInternalError<CLIReporterErrorContext>;
}

/** Where a failure the reporter survived happened: `write` (the stream), `render` (the live view), `handle` (a method or event). */
export interface CLIReporterErrorContext extends InternalErrorContext {
  readonly where: 'write' | 'render' | 'handle';
}

/**
 * Progress for a person at a terminal. In `plain` mode (logs, CI, pipes) it prints one
 * line per call, e.g. `  [progress] Tool: file_read done — ok`; in `live` mode (a TTY) it
 * redraws one status block in place: a bar with percent, elapsed time and ETA, the
 * iteration, running tools with a spinner, recent tools with durations and previews,
 * limit and wind-down warnings, and a final summary that stays on screen.
 *
 * It is a {@link ProgressReporter} (the seven methods) and an event handler (`handle`),
 * so it can be handed to a runtime or added to a progress hub, where events bring
 * durations, previews, ETA, limits and the progress report. It never throws into, and
 * never waits on, the code that calls it.
 *
 * @example
 * ```ts
 * import { createProgressHub } from '@headway/protocol';
 * import { CLIReporter } from '@headway/reporter-cli';
 *
 * const reporter = new CLIReporter();
 * const hub = createProgressHub({ runId: 'run-1' });
 * hub.add(reporter);
 * hub.emit({ type: 'run.started', agentName: 'demo', task: 'Summarize the README file' });
 * reporter.log('host output goes above the live block');
 * hub.emit({ type: 'run.finished', durationMs: 1200, outcome: 'completed', summary: 'done' });
 * ```
 */
export class CLIReporter implements ProgressReporter {
  /** The mode in use, `auto` resolved. */
  readonly mode: 'plain' | 'live';
  /** Whether details for debugging (checkpoints) are shown, the environment resolved. */
  readonly verbose: boolean;
  /** Failures caught inside the reporter so far. */
  failures = 0;

  private readonly output: TerminalOutput;
  private readonly now: () => number;
  private readonly previewLength: number;
  private readonly recentTools: number;
  private readonly onInternalError: OnInternalError<CLIReporterErrorContext> | undefined;
  private readonly view: LiveView | undefined;
  private readonly colors: Colors;
  /** The redaction censor, or `undefined` when redaction is off. */
  private readonly censor: string | undefined;
  private state: LiveState | undefined;

  constructor(options: CLIReporterOptions = {}) {
    const stream = options.stream ?? process.stderr;
    const env = options.env ?? process.env;
    this.mode = resolveMode(options.mode ?? 'auto', stream, env);
    this.verbose = options.verbose ?? isSet(env.HEADWAY_VERBOSE);
    const clock = options.clock ?? systemClock;
    this.now = () => clock.now();
    this.previewLength = positive(options.previewLength, 80);
    this.recentTools = positive(options.recentTools, 3);
    this.onInternalError = options.onInternalError;
    this.censor = options.redact === false ? undefined : (options.redact?.censor ?? '[REDACTED]');
    this.output = new TerminalOutput(stream, positive(options.maxBufferedBytes, 1 << 20), (error) => {
      this.internalError(error, 'write');
    });
    this.colors = pc.createColors(this.mode === 'live' && (options.color ?? resolveColor(stream, env)));
    if (this.mode === 'live') {
      this.view = new LiveView(this.output, { clock, colors: this.colors, maxRunning: 3 }, (error) => {
        this.internalError(error, 'render');
      });
    }
  }

  onStart(task: string): void {
    this.guard(() => {
      if (this.view === undefined) this.line(plainLine.start(task));
      else this.begin(this.clean(task));
    });
  }

  onProgress(pct: number, label: string): void {
    this.guard(() => {
      if (this.view === undefined) this.line(plainLine.progress(pct, label));
      else
        this.live((s) => {
          s.progress(pct, this.clean(label), this.now());
        });
    });
  }

  onToolStart(name: string): void {
    this.guard(() => {
      if (this.view === undefined) this.line(plainLine.toolStart(name));
      else
        this.live((s) => {
          s.toolStarted(this.clean(name), undefined, this.now());
        });
    });
  }

  onToolDone(name: string, summary: string): void {
    this.guard(() => {
      if (this.view === undefined) {
        this.line(plainLine.toolDone(name, summary));
        return;
      }
      // `ok`/`error` is what the mark shows; any other summary is worth a preview.
      const preview = summary === 'ok' || summary === 'error' ? '' : this.preview(summary);
      this.live((s) => {
        s.toolFinished(this.clean(name), undefined, summary !== 'error', this.now(), undefined, preview);
      });
    });
  }

  onIteration(i: number, maxIterations: number): void {
    this.guard(() => {
      if (this.view === undefined) this.line(plainLine.iteration(i, maxIterations));
      else
        this.live((s) => {
          s.iteration = { index: i, max: maxIterations };
        });
    });
  }

  onComplete(summary: string): void {
    this.guard(() => {
      if (this.view === undefined) this.line(plainLine.complete(summary));
      else this.finish('completed', this.clean(summary));
    });
  }

  onError(error: string): void {
    this.guard(() => {
      if (this.view === undefined) this.line(plainLine.error(error));
      else if (error.startsWith(CANCELLED_PREFIX)) this.finish('cancelled', this.clean(error.slice(CANCELLED_PREFIX.length)));
      else this.finish('error', this.clean(error));
    });
  }

  /** Takes one event of the richer stream (what a progress hub calls). */
  handle(event: ProgressEvent): void {
    // Inline rather than through guard(): this runs for every event of a run, and the events
    // that show nothing (steps, thinking, text deltas; checkpoints unless verbose) return first.
    try {
      const type = event.type;
      if (SILENT_EVENTS.has(type) || (type === 'checkpoint.saved' && !this.verbose)) return;
      if (this.view === undefined) {
        const text = plainEventText(event, this.previewLength, this.redactText);
        if (text !== undefined) this.line(text);
      } else {
        this.handleLive(event);
      }
    } catch (error) {
      this.internalError(error, 'handle');
    }
  }

  /**
   * Prints a line of the host program's own output (formatted like `console.log`). In live
   * mode it goes above the status block, which is redrawn below it, so neither garbles the
   * other; in plain mode it is written as is.
   */
  log(...args: unknown[]): void {
    this.guard(() => {
      const text = format(...args);
      if (this.view === undefined) this.line(text);
      else this.view.print(this.redactText(text));
    });
  }

  /**
   * Leaves the live block on screen as it is and stops animating it, for a run that ends
   * without a terminal call. Plain mode has nothing to stop. Safe to call more than once.
   */
  stop(): void {
    this.guard(() => {
      this.view?.end();
      this.state = undefined;
    });
  }

  private handleLive(event: ProgressEvent): void {
    const now = this.now();
    switch (event.type) {
      case 'run.started':
        this.begin(this.clean(event.task ?? event.agentName));
        return;
      case 'iteration':
        this.live((s) => {
          s.iteration = { index: event.index, max: event.max };
        });
        return;
      case 'progress':
        this.live((s) => {
          s.progress(
            event.percent,
            event.message === undefined ? s.label : this.clean(event.message),
            now,
            event.etaMs,
            { lowMs: event.etaLowMs, highMs: event.etaHighMs },
            { guess: event.guess, plan: event.plan },
          );
        });
        return;
      case 'plan.updated': {
        const plan = event.items.slice(0, MAX_PLAN_ITEMS).map((item) => ({ text: this.clean(item.text), status: item.status }));
        this.live((s) => {
          s.plan = plan;
        });
        return;
      }
      case 'tool.executing':
        this.live((s) => {
          s.toolStarted(this.clean(event.toolName), event.toolCallId, now);
        });
        return;
      case 'tool.completed': {
        const preview = event.preview === undefined ? '' : this.preview(event.preview);
        this.live((s) => {
          s.toolFinished(this.clean(event.toolName), event.toolCallId, event.ok, now, event.durationMs, preview);
        });
        return;
      }
      case 'limit.approaching':
      case 'limit.reached':
      case 'wind-down.started':
      case 'timeout.extended': {
        const notice = noticeOf(event);
        if (notice !== undefined) this.notice(notice.level, notice.text);
        return;
      }
      case 'stall.detected':
      case 'stall.cleared': {
        // One stall line at a time: a clear replaces the warning it ends.
        const notice = noticeOf(event);
        if (notice !== undefined) this.notice(notice.level, notice.text, 'stall');
        return;
      }
      case 'checkpoint.saved':
        this.notice('info', `checkpoint saved: ${this.clean(event.checkpointId)}`, 'checkpoint');
        return;
      case 'intermediate.result': {
        const preview = this.preview(event.content);
        if (preview !== '') this.view?.print(`${this.colors.dim('Result:')} ${preview}`);
        return;
      }
      case 'report.generated':
        this.view?.print(this.redactText(`\n${renderReportMarkdown(event.report)}\n`));
        return;
      case 'run.finished': {
        const tokens = event.tokenCount === undefined ? '' : ` (${event.tokenCount} tokens)`;
        if (event.outcome === 'limit')
          this.finish('limit', `${this.clean(event.summary ?? 'see the progress report')}${tokens}`, event.durationMs);
        else this.finish('completed', `${this.clean(event.summary ?? 'finished')}${tokens}`, event.durationMs);
        return;
      }
      case 'run.error':
        this.finish('error', this.clean(event.error));
        return;
      case 'run.cancelled':
        this.finish('cancelled', this.clean(event.reason ?? 'no reason given'));
        return;
      case 'step.started':
      case 'step.finished':
      case 'thinking':
      case 'text.delta':
        return;
    }
  }

  private begin(task: string): void {
    const state = new LiveState(this.now(), this.recentTools, 3);
    state.task = task;
    this.state = state;
    this.view?.begin(state);
  }

  /** Applies `change` to the current block, starting one when none is shown. */
  private live(change: (state: LiveState) => void): void {
    if (this.state === undefined || this.view?.active !== true) this.begin('');
    if (this.state === undefined) return;
    change(this.state);
    this.view?.update();
  }

  private notice(level: LiveNotice['level'], text: string, key?: string): void {
    const shown = this.clean(text);
    this.live((s) => {
      s.notice(level, shown, key);
    });
  }

  private finish(kind: LiveOutcome['kind'], text: string, durationMs?: number): void {
    if (this.state === undefined || this.view?.active !== true) this.begin('');
    const { state } = this;
    if (state === undefined) return;
    state.finish({ kind, text, durationMs: durationMs ?? Math.max(0, this.now() - state.startedAt) });
    this.view?.end();
    this.state = undefined;
  }

  private preview(text: string): string {
    const head = text.slice(0, Math.max(2 * MAX_LIVE_TEXT, 2 * this.previewLength));
    return toolResultPreview(this.redactText(oneLine(head)), this.previewLength);
  }

  /**
   * Text as printed: secrets replaced, unless redaction is off. A bound function, made once:
   * plain mode hands it to `plainEventText` for every event (previews are redacted before they
   * are cut), where copying the event with its preview redacted cost a copy per tool result.
   */
  private readonly redactText = (text: string): string => (this.censor === undefined ? text : redactString(text, this.censor));

  /**
   * One piece of the live block: one line, redacted, at most {@link MAX_LIVE_TEXT} long. Only
   * the head of the text is read, so the cost does not grow with the text; a secret cut at
   * twice the cap is never shown, since the piece is cut again at the cap.
   */
  private clean(text: string): string {
    return capText(this.redactText(oneLine(text.slice(0, 2 * MAX_LIVE_TEXT))));
  }

  private line(text: string): void {
    this.output.write(`${this.redactText(text)}\n`);
  }

  private guard(fn: () => void): void {
    try {
      fn();
    } catch (error) {
      this.internalError(error, 'handle');
    }
  }

  private internalError(error: unknown, where: CLIReporterErrorContext['where']): void {
    this.failures += 1;
    try {
      this.onInternalError?.(error, { where });
    } catch {
      // The user's error callback failing must not reach the caller either.
    }
  }
}

/** Events with nothing for a person to read, in either mode. */
const SILENT_EVENTS: ReadonlySet<string> = new Set<ProgressEvent['type']>(['step.started', 'step.finished', 'thinking', 'text.delta']);

function positive(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isFinite(value) && value > 0 ? Math.floor(value) : fallback;
}
