// The bridge's side of stall detection, as the runtime does it: the estimator's detector sees
// every tool call, the model's text and the iteration ends; a stall is emitted, freezes the bar,
// and the run's stall policy says whether to nudge the model once or wind the run down.
import { createStallDetector, type StallChange, type StallDetector, type StallThresholds } from '@headway/estimator';
import type { ProgressEventBody, StallDetectedEvent } from '@headway/protocol';
import { describeStall } from '@headway/protocol/internal';
import { AiSdkError } from './ai-sdk-error.js';

/**
 * What the bridge does when a run looks stuck: `warn` only reports it (`stall.detected`, a frozen
 * bar), `nudge` also tells the model once, in the next step's prompt, what repeated, `wind-down`
 * ends the run like a limit: the model writes its progress report (stop reason `stalled`).
 */
export type StallAction = 'warn' | 'nudge' | 'wind-down';

/** What a {@link StallPolicy} function is told about a stall. */
export interface StallInfo {
  kind: StallDetectedEvent['kind'];
  evidence: StallDetectedEvent['evidence'];
  /** The iteration (zero-based) where the repetition began. */
  since: number;
  /** The iteration (zero-based) it was seen in. */
  iteration: number;
  /** What repeated, for people: `ls src/work 5× with the same result`. */
  description: string;
}

/** A {@link StallAction} for every stall, or a function choosing one per stall. */
export type StallPolicy = StallAction | ((info: StallInfo) => StallAction);

const ACTIONS: readonly StallAction[] = ['warn', 'nudge', 'wind-down'];

/** The one message a `nudge` stall policy adds to the next step's prompt, naming what repeated. */
function stallNudgePrompt(description: string): string {
  return [
    `You seem to be stuck: ${description}.`,
    'Doing the same thing again will give the same result. Change your approach (other arguments, another tool, another way to the goal), or, if the task is done or cannot be done, say so and stop.',
  ].join(' ');
}

/** What the stall watch needs from the bridge. */
interface StallWatchHost {
  policy: StallPolicy;
  thresholds: Partial<StallThresholds>;
  pollTools: readonly string[];
  emit: (body: ProgressEventBody) => void;
  /** The run's tracker stops or resumes the bar. */
  setStalled: (stalled: boolean) => void;
  /** A throwing policy, or one answering something else: the stall is treated as `warn`. */
  onPolicyError: (error: unknown) => void;
}

/** One tool call as the bridge hands it to the watch. */
interface StallWatchCall {
  iteration: number;
  id: string;
  name: string;
  args: unknown;
  result: unknown;
  ok: boolean;
}

/**
 * Feeds the estimator's stall detector and keeps the policy's decision until the bridge reads it
 * at the next step boundary ({@link StallWatch.takeNudge}, {@link StallWatch.windDown}).
 */
export class StallWatch {
  readonly #host: StallWatchHost;
  readonly #detector: StallDetector;
  #nudge: string | undefined;
  #windDown: string | undefined;
  #last: string | undefined;

  /** @throws {EstimatorError} for thresholds out of range (the options schema rejects them first). */
  constructor(host: StallWatchHost) {
    this.#host = host;
    this.#detector = createStallDetector({ ...host.thresholds, pollTools: host.pollTools });
  }

  /** A tool call finished. */
  toolCall(call: StallWatchCall): void {
    this.#apply(this.#detector.toolCall(call), call.iteration);
  }

  /** The model wrote `text` (its visible reply) in `iteration`. */
  text(iteration: number, text: string): void {
    this.#apply(this.#detector.text(iteration, text), iteration);
  }

  /** The plan has `completed` items done. */
  plan(completed: number): void {
    this.#detector.plan(completed);
  }

  /** The step of `iteration` closed. */
  iterationFinished(iteration: number): void {
    this.#apply(this.#detector.iterationFinished(iteration), iteration);
  }

  /** The nudge to add to the next step's prompt, once per stall, or `undefined`. */
  takeNudge(): string | undefined {
    const nudge = this.#nudge;
    this.#nudge = undefined;
    return nudge;
  }

  /** What repeated, when the policy chose to wind the run down. */
  get windDown(): string | undefined {
    return this.#windDown;
  }

  /** The last stall seen, described (`ls src/work 5× with the same result`), for the report. */
  get lastStall(): string | undefined {
    return this.#last;
  }

  #apply(change: StallChange | undefined, iteration: number): void {
    if (change === undefined) return;
    this.#host.emit(change);
    if (change.type === 'stall.cleared') {
      this.#host.setStalled(false);
      return;
    }
    this.#host.setStalled(true);
    const description = describeStall(change);
    this.#last = description;
    const action = this.#decide({ kind: change.kind, evidence: change.evidence, since: change.since, iteration, description });
    if (action === 'nudge') this.#nudge = stallNudgePrompt(description);
    else if (action === 'wind-down') this.#windDown ??= description;
  }

  #decide(info: StallInfo): StallAction {
    const policy = this.#host.policy;
    if (typeof policy !== 'function') return policy;
    let answer: unknown;
    try {
      answer = policy(info);
    } catch (error) {
      this.#host.onPolicyError(error);
      return 'warn';
    }
    if (typeof answer === 'string' && (ACTIONS as readonly string[]).includes(answer)) return answer as StallAction;
    this.#host.onPolicyError(
      new AiSdkError(
        'AI_SDK_INVALID_OPTIONS',
        'stallPolicy returned something other than "warn", "nudge" or "wind-down"; treated as "warn"',
        {
          issues: [{ path: 'stallPolicy', message: 'must return "warn", "nudge" or "wind-down"' }],
        },
      ),
    );
    return 'warn';
  }
}
