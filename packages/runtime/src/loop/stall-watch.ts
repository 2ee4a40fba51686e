import type { ReportInternalError } from './internal-error-context.js';
import { createStallDetector, type StallChange, type StallDetector } from '@headway/estimator';
import type { ProgressEventBody } from '@headway/protocol';
import { describeStall } from '@headway/protocol/internal';
import type { Tool } from '../tools/define-tool.js';
import type { AgentConfig, StallAction, StallInfo } from './agent-config.js';
import { ConfigError } from './config-error.js';
import { stallNudgePrompt } from './loop-prompts.js';

const ACTIONS: readonly StallAction[] = ['warn', 'nudge', 'wind-down'];

/** What the stall watch needs from its loop. */
export interface StallWatchHost {
  config: AgentConfig;
  tools: ReadonlyMap<string, Tool>;
  emit: (body: ProgressEventBody) => void;
  /** The run's tracker stops or resumes the bar. */
  setStalled: (stalled: boolean) => void;
  onInternalError: ReportInternalError;
}

/**
 * The runtime's side of stall detection: feeds the estimator's detector, emits `stall.detected` /
 * `stall.cleared`, freezes the bar while stalled, and asks the run's {@link StallPolicy} what to do.
 * The loop reads the decision at the iteration boundary ({@link takeNudge}, {@link windDown}).
 */
export class StallWatch {
  readonly #host: StallWatchHost;
  readonly #detector: StallDetector;
  #nudge: string | undefined;
  #windDown: string | undefined;
  #last: string | undefined;

  constructor(host: StallWatchHost) {
    this.#host = host;
    const polls = [...host.tools.values()].filter((t) => t.poll === true).map((t) => t.name);
    this.#detector = createStallDetector({ ...host.config.stall, pollTools: polls });
  }

  /** A tool call finished. */
  toolCall(call: { iteration: number; id: string; name: string; args: unknown; result: unknown; ok: boolean }): void {
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

  /** The tool calls of `iteration` finished. */
  iterationFinished(iteration: number): void {
    this.#apply(this.#detector.iterationFinished(iteration), iteration);
  }

  /** The nudge to send the model, once per stall, or `undefined`. */
  takeNudge(): string | undefined {
    const nudge = this.#nudge;
    this.#nudge = undefined;
    return nudge;
  }

  /** What repeated, when the policy chose to wind the run down; the loop then starts the wind-down. */
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
    const policy = this.#host.config.stallPolicy;
    if (typeof policy !== 'function') return policy;
    let answer: unknown;
    try {
      answer = policy(info);
    } catch (error) {
      this.#host.onInternalError(error, 'stallPolicy');
      return 'warn';
    }
    if (typeof answer === 'string' && (ACTIONS as readonly string[]).includes(answer)) return answer as StallAction;
    this.#host.onInternalError(
      new ConfigError(
        'RUNTIME_INVALID_CONFIG',
        'stallPolicy returned something other than "warn", "nudge" or "wind-down"; treated as "warn"',
      ),
      'stallPolicy',
    );
    return 'warn';
  }
}
