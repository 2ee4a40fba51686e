import type { Clock } from '@headway/protocol';
import { repeatOn } from '@headway/protocol/internal';
import { eraseLines } from 'ansi-escapes';
import cliCursor from 'cli-cursor';
import { createLogUpdate } from 'log-update';
import type { Colors } from './colors.js';
import { columnWidth } from './column-width.js';
import { renderLiveFrame, SPINNER_INTERVAL_MS } from './live-frame.js';
import type { LiveState } from './live-state.js';
import type { TerminalOutput } from './terminal-output.js';

/** Redraws closer together than this wait for the next tick (floods of events cost nothing). */
const MIN_REDRAW_MS = 30;

/** What the view needs besides the output. */
export interface LiveViewOptions {
  clock: Clock;
  colors: Colors;
  maxRunning: number;
}

type LogUpdate = ReturnType<typeof createLogUpdate>;

/**
 * The live block on the terminal: drawn with log-update (which rewrites only the lines that
 * changed), animated by an unref'd timer on the clock while a run is active, redrawn on resize, and
 * moved out of the way when the host prints with `log()`.
 */
export class LiveView {
  private readonly logUpdate: LogUpdate;
  private readonly proxy: NodeJS.WritableStream;
  private state: LiveState | undefined;
  private stopTicker: (() => void) | undefined;
  private ticking = false;
  private lastDraw = Number.NEGATIVE_INFINITY;
  private cursorHidden = false;
  private resizeListening = false;
  /** Columns and line widths of the block on screen, to erase it whole after a resize. */
  private drawn: { columns: number; widths: number[] } | undefined;
  /** Terminal width as of the current draw. */
  private columns = 80;
  private readonly onResize = (): void => {
    this.guard(() => {
      this.draw(true);
    });
  };

  constructor(
    private readonly output: TerminalOutput,
    private readonly options: LiveViewOptions,
    private readonly reportError: (error: unknown) => void,
  ) {
    const { stream } = output;
    const currentColumns = (): number => this.columns;
    // log-update sees only this proxy, so each of its writes passes the output's guards.
    const proxy = {
      write: (chunk: string) => output.write(chunk),
      get isTTY() {
        return stream.isTTY === true;
      },
      get columns() {
        return currentColumns();
      },
      get rows() {
        return stream.rows;
      },
    };
    this.proxy = proxy as unknown as NodeJS.WritableStream;
    // showCursor: true stops log-update from hiding the cursor on process.stderr whatever
    // the stream; the cursor is hidden on this stream instead, below.
    this.logUpdate = createLogUpdate(this.proxy, { showCursor: true, defaultWidth: 80, defaultHeight: 24 });
  }

  /** True while a block is on screen and will be redrawn. */
  get active(): boolean {
    return this.state !== undefined;
  }

  /** Starts showing `state` (the previous block, if any, stays where it is). */
  begin(state: LiveState): void {
    if (this.state !== undefined) this.end();
    this.state = state;
    this.lastDraw = Number.NEGATIVE_INFINITY;
    if (!this.cursorHidden) {
      cliCursor.hide(this.proxy);
      this.cursorHidden = true;
    }
    this.listenForResize(true);
    this.ticking = true;
    this.stopTicker = repeatOn(this.options.clock, SPINNER_INTERVAL_MS, this.onTick, { unref: true });
    this.draw(true);
  }

  /** The state changed; redraws now, or on the next tick when the last draw was moments ago. */
  update(): void {
    this.draw(false);
  }

  /** Draws the final frame, leaves it on screen and stops animating. */
  end(): void {
    if (this.state === undefined) return;
    this.draw(true);
    this.state = undefined;
    this.stopTicking();
    this.listenForResize(false);
    this.logUpdate.done();
    this.drawn = undefined;
    if (this.cursorHidden) {
      cliCursor.show(this.proxy);
      this.cursorHidden = false;
    }
  }

  /** Prints `text` (a newline is added) above the block and redraws the block below it. */
  print(text: string): void {
    if (this.state === undefined) {
      this.output.write(`${text}\n`);
      return;
    }
    this.logUpdate.clear();
    this.drawn = undefined;
    this.output.write(`${text}\n`);
    this.draw(true);
  }

  private readonly onTick = (): void => {
    this.guard(() => {
      this.draw(true);
    });
  };

  private draw(force: boolean): void {
    const { state } = this;
    if (state === undefined) return;
    const now = this.options.clock.now();
    // The ticker draws again within one interval, so a skipped redraw is never lost.
    if (!force && now - this.lastDraw < MIN_REDRAW_MS) return;
    // A dropped write means the screen no longer matches what log-update believes it drew:
    // start a fresh block instead of patching a frame that is not there.
    if (this.output.takeDropped() > 0) {
      this.logUpdate.done();
      this.drawn = undefined;
    }
    const columns = this.measureColumns();
    this.columns = columns;
    if (this.drawn !== undefined && columns < this.drawn.columns) this.eraseReflowed(columns);
    const frame = renderLiveFrame(state, {
      now,
      width: Math.max(1, columns - 1),
      colors: this.options.colors,
      maxRunning: this.options.maxRunning,
    });
    this.logUpdate(frame);
    this.drawn = { columns, widths: frame.split('\n').map((line) => columnWidth(line)) };
    this.lastDraw = now;
  }

  /**
   * Asks a TTY for its size now: a resized terminal reflows at once, but `columns` only
   * changes when Node handles SIGWINCH, and a tick drawn in between would patch a screen
   * that is no longer there.
   */
  private measureColumns(): number {
    const { stream } = this.output;
    try {
      const size = stream.getWindowSize?.();
      if (size !== undefined && size[0] > 0) return size[0];
    } catch {
      // Not a terminal after all (or closed): fall back to what the stream last said.
    }
    return stream.columns ?? 80;
  }

  /**
   * After the terminal narrows, a terminal that reflows (most do: tmux, VTE, iTerm2, kitty,
   * Windows Terminal) has wrapped each line of the old block over several rows, more than
   * log-update knows to erase. Erase every row the old block now covers, then draw afresh.
   */
  private eraseReflowed(columns: number): void {
    const widths = this.drawn?.widths ?? [];
    const rows = widths.reduce((sum, width) => sum + Math.max(1, Math.ceil(width / Math.max(1, columns))), 0);
    this.logUpdate.done();
    this.drawn = undefined;
    // +1: log-update leaves the cursor on the empty line below the block.
    this.output.write(eraseLines(rows + 1));
  }

  private stopTicking(): void {
    if (!this.ticking) return;
    this.ticking = false;
    this.stopTicker?.();
    this.stopTicker = undefined;
  }

  private listenForResize(on: boolean): void {
    const { stream } = this.output;
    if (on === this.resizeListening) return;
    if (on && typeof stream.on === 'function') {
      stream.on('resize', this.onResize);
      this.resizeListening = true;
    } else if (!on) {
      stream.off?.('resize', this.onResize);
      this.resizeListening = false;
    }
  }

  private guard(fn: () => void): void {
    try {
      fn();
    } catch (error) {
      this.reportError(error);
    }
  }
}
