import { ProgressTracker } from '@headway/estimator';
import type { Clock, ProgressEvent, ProgressEventBody } from '@headway/protocol';
import { repeatOn } from '@headway/protocol/internal';
import { CLIReporter, type CLIReporterMode } from '@headway/reporter-cli';
import { EXIT } from './cli-error.js';
import { ioClock, type CliIo } from './io/cli-io.js';

/**
 * Longest gap between two frames of the live block: about 12 a second, what a person can follow.
 * Events that arrive faster are handed to the view in batches, one frame per batch.
 */
export const FRAME_MS = 83;

/** Options of {@link LiveFeed}. */
export interface LiveFeedOptions {
  io: CliIo;
  /** `plain` or `live` (default: live on a TTY, plain otherwise, as the CLI reporter decides). */
  mode?: CLIReporterMode;
  /** The run's turn cap when known: the estimator's roundtrip estimate uses it. */
  maxTurns?: number;
  /** Drive the estimator from the events (default true); false when the events carry `progress` of their own. */
  estimate?: boolean;
}

/**
 * Events in, the CLI reporter's view out: each event goes to a `CLIReporter`, and (for streams
 * that carry no `progress` of their own) drives a `ProgressTracker` — turns, tools and the agent's
 * plan (`plan.updated`) — whose percent and ETA range (`etaMs`, `etaLowMs`, `etaHighMs`) are shown
 * as `progress` events. The view gets its own `seq` numbers, so the tracker's events fit in.
 */
export class LiveFeed {
  readonly reporter: CLIReporter;
  #tracker: ProgressTracker | undefined;
  #seq = 0;
  #runId = 'run';
  #terminal: ProgressEvent | undefined;
  #sawProgress = false;
  readonly #estimate: boolean;
  readonly #maxTurns: number;
  readonly #clock: Clock;
  #stopTicker: (() => void) | undefined;
  /** Live mode: events waiting for the next frame, the view's own animation tick, and the frame timer. */
  #pending: ProgressEvent[] = [];
  #viewTick: (() => void) | undefined;
  #stopFrames: (() => void) | undefined;

  constructor(options: LiveFeedOptions) {
    const clock = ioClock(options.io);
    this.#clock = clock;
    this.#estimate = options.estimate ?? true;
    this.#maxTurns = options.maxTurns ?? Number.POSITIVE_INFINITY;
    // The view animates itself on a timer of its clock; here that timer is this feed's frame
    // clock, so a frame is drawn either for a batch of new events or for the animation, never both.
    const viewClock: Clock = {
      now: () => clock.now(),
      setTimeout: (callback) => {
        this.#viewTick = callback;
        return callback;
      },
      clearTimeout: (handle) => {
        if (handle === this.#viewTick) this.#viewTick = undefined;
      },
    };
    this.reporter = new CLIReporter({
      stream: options.io.stderr,
      env: options.io.env,
      clock: viewClock,
      ...(options.mode === undefined ? {} : { mode: options.mode }),
    });
    if (this.reporter.mode === 'live') {
      this.#stopFrames = repeatOn(
        clock,
        FRAME_MS,
        () => {
          this.#frame();
        },
        { unref: true },
      );
    }
  }

  /** The run's terminal event, once shown. */
  get terminal(): ProgressEvent | undefined {
    return this.#terminal;
  }

  /** Shows one event (and the progress it implies). Nothing after the terminal event. */
  show(event: ProgressEvent): void {
    if (this.#terminal !== undefined) return;
    if (event.type === 'progress') this.#sawProgress = true;
    if (event.type === 'run.started') this.#start(event.runId);
    // 100% before the line that says it finished.
    if (event.type === 'run.finished' && event.outcome === 'completed' && this.#estimate && !this.#sawProgress) this.#tracker?.complete();
    this.#emit(event);
    if (!this.#estimate || this.#sawProgress) return;
    const tracker = this.#tracker;
    if (tracker === undefined) return;
    switch (event.type) {
      case 'step.started':
        tracker.roundtripStarted();
        break;
      case 'tool.executing':
        tracker.toolsStarted();
        break;
      case 'tool.completed':
        tracker.toolCallFinished(event.toolName, event.ok);
        break;
      case 'step.finished':
        tracker.roundtripFinished();
        break;
      case 'stall.detected':
      case 'stall.cleared':
        tracker.setStalled(event.type === 'stall.detected');
        break;
      case 'plan.updated':
        // The agent's own todo list (TodoWrite, todo_list, write_todos) moves the bar once it is kept current.
        tracker.planUpdated(event);
        break;
      default:
        break;
    }
  }

  /** Prints a line above the live block (or as a plain line), after the events before it. */
  log(text: string): void {
    this.#flush();
    this.reporter.log(text);
  }

  /** Stops animating; the exit code the run's end calls for (0 ok, 1 failed or never ended, 3 stopped short). */
  finish(): number {
    this.#stopTicker?.();
    this.#stopFrames?.();
    this.#flush();
    this.reporter.stop();
    const t = this.#terminal;
    if (t === undefined || t.type === 'run.error') return EXIT.failed;
    if (t.type === 'run.cancelled' || (t.type === 'run.finished' && t.outcome === 'limit')) return EXIT.stoppedShort;
    return EXIT.ok;
  }

  #start(runId: string): void {
    this.#runId = runId;
    if (!this.#estimate || this.#tracker !== undefined) return;
    this.#tracker = new ProgressTracker({
      maxRoundtrips: this.#maxTurns,
      clock: this.#clock,
      emit: (body) => {
        if (this.#terminal === undefined && !this.#sawProgress) this.#emit(body);
      },
    });
    // Lets the bar creep within a long turn, as the runtime does.
    this.#stopTicker = repeatOn(this.#clock, 1000, () => this.#tracker?.tick(), { unref: true });
  }

  #emit(body: ProgressEvent | ProgressEventBody): void {
    this.#seq += 1;
    const event = { ...body, runId: this.#runId, seq: this.#seq, ts: 'ts' in body ? body.ts : this.#clock.now() };
    const terminal = event.type === 'run.finished' || event.type === 'run.error' || event.type === 'run.cancelled';
    if (terminal) this.#terminal = event;
    if (this.#stopFrames === undefined) {
      this.reporter.handle(event);
      return;
    }
    this.#pending.push(event);
    if (terminal) this.#flush();
  }

  /** One frame: the waiting events (the view draws as the first arrives), or else the animation. */
  #frame(): void {
    if (this.#pending.length > 0) this.#flush();
    else this.#viewTick?.();
  }

  #flush(): void {
    const events = this.#pending;
    if (events.length === 0) return;
    this.#pending = [];
    for (const event of events) this.reporter.handle(event);
  }
}
