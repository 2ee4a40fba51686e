import { ProgressTracker, type ProgressEmission } from '@headway/estimator';
import type { Clock, ProgressEvent } from '@headway/protocol';

/** Options of {@link RunProgress}. */
export interface RunProgressOptions {
  /** The estimator's time: the live clock (`watch`) or the stream's own (`convert`). */
  clock: Clock;
  /** The run's turn cap when known (default: none). */
  maxTurns?: number | undefined;
  /** Each `progress` body the estimator makes, as it makes it. */
  emit: (body: ProgressEmission) => void;
}

/**
 * The estimator driven by a run's events: what `watch` shows and what `convert` writes are made
 * here, the same way. Turns, tools and the agent's own plan (`plan.updated`) move a
 * `ProgressTracker`, whose percent and ETA range come out as `progress` bodies through `emit`.
 * A stream that carries `progress` of its own is shown as it is: the estimator stops at its first.
 */
export class RunProgress {
  #tracker: ProgressTracker | undefined;
  #sawProgress = false;
  readonly #options: RunProgressOptions;

  constructor(options: RunProgressOptions) {
    this.#options = options;
  }

  /** True once the tracker runs (from `run.started`): a timer may call {@link RunProgress.tick}. */
  isStarted(): boolean {
    return this.#tracker !== undefined;
  }

  /**
   * One event of the run: `show` is called with it, after the progress it completes (100% comes
   * before the line that says the run finished) and before the progress it implies.
   */
  handle(event: ProgressEvent, show: (event: ProgressEvent) => void): void {
    if (event.type === 'progress') this.#sawProgress = true;
    if (event.type === 'run.started' && this.#tracker === undefined && !this.#sawProgress) {
      this.#tracker = new ProgressTracker({
        maxIterations: this.#options.maxTurns ?? Number.POSITIVE_INFINITY,
        clock: this.#options.clock,
        emit: (body) => {
          if (!this.#sawProgress) this.#options.emit(body);
        },
      });
    }
    const tracker = this.#sawProgress ? undefined : this.#tracker;
    if (event.type === 'run.finished' && event.outcome === 'completed') tracker?.complete();
    show(event);
    if (tracker === undefined) return;
    switch (event.type) {
      case 'step.started':
        tracker.iterationStarted();
        break;
      case 'tool.executing':
        tracker.toolsStarted();
        break;
      case 'tool.completed':
        tracker.toolCallFinished(event.toolName, event.ok);
        break;
      case 'step.finished':
        tracker.iterationFinished();
        break;
      case 'stall.detected':
      case 'stall.cleared':
        // While stuck the percent stays where it is and the ETA is unknown.
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

  /** Re-reads the clock: lets the bar creep within a long turn (`watch` calls it every second). */
  tick(): void {
    if (!this.#sawProgress) this.#tracker?.tick();
  }
}

/** How often the bar is re-read within a turn, in ms of the run's time. */
export const TICK_MS = 1000;
