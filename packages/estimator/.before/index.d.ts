import { HeadwayError, ValidationIssue } from "@headway/protocol";
import { z } from "zod";

//#region src/estimate-progress.d.ts
/** Which half of a roundtrip a run is in: waiting for the model, or running its tool calls. */
type RoundtripPhase = "llm" | "tools";
/**
* The naive roundtrip estimate: how far a run is after `roundtrip` of at most
* `maxRoundtrips` model calls, with half a roundtrip credited once its tools run.
*
* It is the baseline every other source improves on; the exact formula is relied on by
* other packages: `min(99, round(roundtrip / maxRoundtrips * 100 + (phase === 'tools' ? 50 / maxRoundtrips : 0)))`.
*
* @throws {RangeError} naming the argument, for non-finite or negative input or `maxRoundtrips <= 0`.
* @example
* ```ts
* estimateProgress(2, 10, 'tools'); // 25
* ```
*/
declare function estimateProgress(roundtrip: number, maxRoundtrips: number, phase: RoundtripPhase): number;
//#endregion
//#region src/step-ranges.d.ts
/** A named step and its relative weight (weights need not sum to 100). */
interface WeightedStep {
  name: string;
  weight: number;
}
/** A weighted step with the slice of the 0–100 scale it covers. */
interface StepRange extends WeightedStep {
  start: number;
  end: number;
}
/** Where weighted steps are laid out; 0–10 is left for initialisation and 90–100 for finalisation. */
interface StepRangeOptions {
  start?: number;
  end?: number;
}
/**
* Lays weighted steps out over `start`–`end` (default 10–90) in proportion to their
* weights: `stepStart = start + cumulativeWeight / totalWeight * (end - start)`.
*
* @throws {RangeError} naming the step whose weight is zero, negative or not finite, or
* naming the bound when `start`/`end` are not finite with `start <= end`.
* @example
* ```ts
* computeStepRanges([{ name: 'a', weight: 20 }, { name: 'b', weight: 60 }, { name: 'c', weight: 20 }]);
* // a: 10–26, b: 26–74, c: 74–90
* ```
*/
declare function computeStepRanges(steps: readonly WeightedStep[], options?: StepRangeOptions): StepRange[];
//#endregion
//#region src/map-progress-to-range.d.ts
/** A slice of a parent's 0–100 scale. */
interface ProgressRange {
  start: number;
  end: number;
}
/**
* Maps a local 0–100 percent into a parent's slice, so a worker's 50% inside a 30–60
* step shows as 45% overall. Local values outside 0–100 are clamped first.
*
* @throws {RangeError} when `local` or either bound is not a finite number.
* @example
* ```ts
* mapProgressToRange(50, { start: 30, end: 60 }); // 45
* ```
*/
declare function mapProgressToRange(local: number, range: ProgressRange): number;
//#endregion
//#region src/progress-config.d.ts
/** The `progress` block of an agent.json. */
interface ProgressConfig {
  /** Expect the model to report `_progress` (default true). */
  aiDriven: boolean;
  /** Steps shown, and used for percent, when the model does not report (default none). */
  fallbackSteps: WeightedStep[];
}
/**
* Validates the `progress` block of an agent.json and fills its defaults.
*
* @example
* ```ts
* progressConfigSchema.parse({}); // { aiDriven: true, fallbackSteps: [] }
* ```
*/
declare const progressConfigSchema: z.ZodType<ProgressConfig>;
/**
* Reads an agent.json and returns its validated `progress` block (defaults when absent).
*
* @throws {EstimatorError} `ESTIMATOR_INVALID_CONFIG` naming the file and the JSON path,
* e.g. `agent.json: progress.fallbackSteps[1].weight: expected a positive number`.
* @example
* ```ts
* const { aiDriven, fallbackSteps } = await loadProgressConfig('./agent.json');
* ```
*/
declare function loadProgressConfig(path: string): Promise<ProgressConfig>;
//#endregion
//#region src/workflow.d.ts
/** One worker call inside a workflow step. */
interface WorkflowCall {
  /** The worker to call, e.g. `workers/generator`. */
  call: string;
  /** The slice this call's own 0–100 maps into (a parallel member shares its group's). */
  start: number;
  end: number;
}
/** A `## N. Title` step of a WORKFLOW.md with its slice of 10–90. */
interface WorkflowStep {
  /** The `N` of the heading. */
  number: number;
  title: string;
  weight: number;
  start: number;
  end: number;
  /** True for a `parallel:` group, whose progress is the mean of its members'. */
  parallel: boolean;
  calls: WorkflowCall[];
  /** 1-based line of the heading in the markdown. */
  line: number;
}
/**
* Parses a manager's WORKFLOW.md — `## N. Title` headings each followed by a fenced yaml
* block (`call: workers/x` + `weight: 60`, or `parallel: { weight, steps: [{ call }] }`) —
* into steps laid out over 10–90 by weight.
*
* @throws {EstimatorError} `ESTIMATOR_INVALID_WORKFLOW` naming the line: a heading
* without a yaml block, invalid yaml, or a block of the wrong shape.
* @example
* ```ts
* const steps = parseWorkflow(await readFile('WORKFLOW.md', 'utf8'));
* const generate = steps.find((s) => s.title === 'Generate Content'); // start 26, end 74
* ```
*/
declare function parseWorkflow(markdown: string): WorkflowStep[];
/**
* Overall percent of a parallel group (or a single call) from its members' own 0–100:
* the mean of the members, mapped into the group's slice.
*/
declare function workflowStepPercent(step: WorkflowStep, memberPercents: readonly number[]): number;
//#endregion
//#region src/model-progress.d.ts
/** Progress a model reported about its own work. */
interface ModelProgress {
  /** 0–100 (clamped). */
  percent: number;
  message?: string;
}
/** Options of {@link extractModelProgress}. */
interface ExtractModelProgressOptions {
  /** Told why a `_progress` that was present got rejected, for logs. Never throws into the caller. */
  onReject?: (reason: string) => void;
}
/**
* The text to add to a system prompt so a model reports `_progress` at milestones.
*
* @example
* ```ts
* const system = `${basePrompt}\n\n${PROGRESS_PROMPT_INSTRUCTIONS}`;
* ```
*/
declare const PROGRESS_PROMPT_INSTRUCTIONS: string;
/**
* Reads a model's `_progress: { percent, message? }` from a structured reply object or
* from JSON text (whole, in a fenced block, or embedded in prose).
*
* Untrusted by design: strings such as `"50"`, NaN, Infinity, arrays and other garbage
* give `undefined` (the reason goes to `onReject`); it never throws. A percent outside
* 0–100 is clamped.
*
* @example
* ```ts
* extractModelProgress('Done.\n```json\n{"_progress":{"percent":40,"message":"Drafting"}}\n```');
* // { percent: 40, message: 'Drafting' }
* ```
*/
declare function extractModelProgress(output: unknown, options?: ExtractModelProgressOptions): ModelProgress | undefined;
//#endregion
//#region src/model-progress-text.d.ts
/**
* The text a user should see: the model's reply without the `_progress` JSON it added for
* the progress bar (a fenced block, an object in prose, or a key of a JSON reply).
* Other JSON is left exactly as it was.
*
* @example
* ```ts
* stripModelProgress('Done with the scan.\n```json\n{"_progress":{"percent":40}}\n```'); // 'Done with the scan.'
* ```
*/
declare function stripModelProgress(text: string): string;
/**
* Streams model text while holding back anything that may turn out to be a `_progress`
* object, so `text.delta` events never show it: text before a `{` or a code fence goes out
* at once; a held span is released when it closes without `_progress` in it, and the rest
* is cleaned with {@link stripModelProgress} at the end.
*/
declare class ProgressTextFilter {
  #private;
  /** Adds a delta; returns the part that is safe to show now. */
  push(delta: string): string;
  /** The stream ended: returns whatever is left, cleaned. */
  flush(): string;
}
//#endregion
//#region src/progress-tracker-state.d.ts
/** The serialisable state of a {@link ProgressTracker}: checkpoints carry it so a resumed bar continues. */
interface ProgressTrackerState {
  version: 1;
  /** The percent last shown (the floor a restored tracker never goes below). */
  percent: number;
  message?: string;
  completed: boolean;
  /** Roundtrips started, and finished. */
  roundtrips: number;
  finishedRoundtrips: number;
  phase: "idle" | "llm" | "tools";
  toolCalls: number;
  /** Tool calls since the current step started. */
  stepToolCalls: number;
  currentStep?: string;
  finishedSteps: string[];
  /** Last validated model report and the roundtrip count it arrived at. */
  model?: {
    percent: number;
    atRoundtrip: number;
  };
  /** Exponentially weighted mean durations per phase, and how many roundtrips fed them. */
  llmMs?: number;
  toolsMs?: number;
  observedRoundtrips: number;
  /** Time spent in the run before the state was saved. */
  elapsedMs: number;
}
/** Validates a {@link ProgressTrackerState} read back from a checkpoint. */
declare const progressTrackerStateSchema: z.ZodType<ProgressTrackerState>;
//#endregion
//#region src/task-history.d.ts
/** One earlier run of the same kind of task. */
interface TaskHistoryRun {
  /** Model calls the run made in total. */
  roundtrips: number;
  /** Wall-clock duration of the whole run. */
  durationMs: number;
}
/**
* Earlier runs of the same kind of task. The tracker uses them as its prior on how many
* roundtrips a run takes and how long one lasts, so a task that usually ends after 4
* roundtrips does not sit at 10% after its first of a cap of 30.
*/
interface TaskHistory {
  runs: TaskHistoryRun[];
}
/** Validates a {@link TaskHistory} read from storage. */
declare const taskHistorySchema: z.ZodType<TaskHistory>;
//#endregion
//#region src/progress-tracker.d.ts
/** The `progress` event body a tracker emits (the hub stamps the envelope). */
interface ProgressEmission {
  type: "progress";
  percent: number;
  message?: string;
  etaMs?: number;
}
/** Options of a {@link ProgressTracker}. */
interface ProgressTrackerOptions {
  /** The run's iteration cap; `Infinity` when there is none (a worker driven by its tool calls). */
  maxRoundtrips: number;
  /** Receives a `progress` body whenever the integer percent or the message changes. Errors it throws are swallowed. */
  emit?: (body: ProgressEmission) => void;
  /** Clock in epoch ms (default `Date.now`). */
  now?: () => number;
  /** Trust validated model `_progress` (default true). */
  aiDriven?: boolean;
  /** Weighted steps laid over 10–90 (an agent.json's `fallbackSteps`). */
  steps?: WeightedStep[];
  /** Earlier runs of this kind of task: calibrate percent and ETA. */
  history?: TaskHistory;
  /** A saved {@link ProgressTracker.toJSON} to continue from (validated). */
  state?: unknown;
}
/** Options of {@link ProgressTracker.child}; the child inherits the clock. */
interface ChildTrackerOptions {
  /** The child's own iteration cap; absent, it advances by tool calls (+10 each, up to 80). */
  maxRoundtrips?: number;
  aiDriven?: boolean;
  steps?: WeightedStep[];
  history?: TaskHistory;
}
/**
* The one place a run's percent and ETA are decided.
*
* Combines, in order of trust, validated model `_progress` (when `aiDriven`), the current
* weighted step's slice, and a roundtrip estimate that conditions a prior on the total
* number of roundtrips (log-uniform up to the cap, or learned from `history`) on how many
* have started. The shown percent is an integer that never decreases, stays at most 99
* until {@link complete}, and is exactly 100 after it.
*
* @example
* ```ts
* const tracker = new ProgressTracker({ maxRoundtrips: 30, emit: (body) => hub.emit(body) });
* tracker.roundtripStarted();
* tracker.toolsStarted();
* tracker.toolCallFinished('read_file', true);
* tracker.roundtripFinished();
* tracker.complete(); // emits { type: 'progress', percent: 100 }
* ```
*/
declare class ProgressTracker {
  private readonly cap;
  private readonly emitFn;
  private readonly clock;
  private readonly aiDriven;
  private readonly ranges;
  private readonly posterior;
  private readonly historyRoundMs;
  private readonly slots;
  private shown;
  private message;
  private completed;
  private roundtrips;
  private finishedRoundtrips;
  private phase;
  private toolCalls;
  private stepToolCalls;
  private currentStep;
  private readonly finishedSteps;
  private model;
  private llmMs;
  private toolsMs;
  private observedRoundtrips;
  private readonly startedAt;
  private roundStartedAt;
  private toolsStartedAt;
  private eta;
  private lastEmitted;
  constructor(options: ProgressTrackerOptions);
  /** The percent shown now: an integer in 0–100 that never decreases. */
  get percent(): number;
  /** Milliseconds left, when there is evidence for it (two observed roundtrips and a cap or history); otherwise undefined. */
  get etaMs(): number | undefined;
  /** A model call begins (phase `llm`); an unfinished previous roundtrip counts as finished. */
  roundtripStarted(): void;
  /** The round's tool calls begin (phase `tools`). */
  toolsStarted(): void;
  /** One tool call ended; counts toward the worker fallback (+10 local each, up to 80). */
  toolCallFinished(_name: string, _ok: boolean): void;
  /** The roundtrip (model call and its tools) ended. */
  roundtripFinished(): void;
  /** A validated model `_progress` (see `extractModelProgress`); ignored unless `aiDriven`. */
  reportModelProgress(progress: ModelProgress): void;
  /** A weighted step begins; its name becomes the message. Unknown names only set the message. */
  stepStarted(name: string): void;
  /** A weighted step ended: the bar reaches at least the end of its slice. */
  stepFinished(name: string): void;
  /** Sets the message shown with the percent. */
  setMessage(message: string): void;
  /** Re-reads the clock: lets the bar creep within a long roundtrip. Call it from a timer. */
  tick(): void;
  /** The run finished successfully: the percent becomes exactly 100. */
  complete(): void;
  /**
  * A tracker whose 0–100 lands in a slice of this one: a `{ start, end }` range or the
  * slice of a weighted step (which starts it). Several children of one slice (parallel
  * members) count as their mean. Nests to any depth.
  *
  * @example
  * ```ts
  * const worker = manager.child('Generate Content');
  * worker.reportModelProgress({ percent: 50 }); // the manager shows the middle of the step's slice
  * ```
  */
  child(rangeOrStep: ProgressRange | string, options?: ChildTrackerOptions): ProgressTracker;
  /** Plain JSON state for checkpoints; pass it back as `state` to continue. */
  toJSON(): ProgressTrackerState;
  private restore;
  private closeRound;
  private roundMs;
  /** Finished roundtrips plus the share of the current one, and how many have started. */
  private position;
  /** The best current estimate on this tracker's own 0–100 scale, before the monotone floor. */
  private target;
  /** Where weighted steps put the bar: inside the current step's slice, by its children or tool calls. */
  private stepValue;
  private finishedFloor;
  /** Explicit measurements (children, finished steps) the model's estimate may not undercut. */
  private rangedFloor;
  private computeEta;
  private update;
}
//#endregion
//#region src/estimator-error.d.ts
/** Codes an {@link EstimatorError} can carry. */
type EstimatorErrorCode = "ESTIMATOR_INVALID_CONFIG" | "ESTIMATOR_INVALID_WORKFLOW" | "ESTIMATOR_INVALID_STATE";
/**
* Thrown when estimator input from outside the program (an agent.json, a WORKFLOW.md, a
* saved tracker state) is invalid; the message names the file or line and the path.
*/
declare class EstimatorError extends HeadwayError {
  readonly code: EstimatorErrorCode;
  constructor(code: EstimatorErrorCode, message: string, issues?: readonly ValidationIssue[], options?: ErrorOptions);
}
//#endregion
export { type ChildTrackerOptions, EstimatorError, type EstimatorErrorCode, type ExtractModelProgressOptions, type ModelProgress, PROGRESS_PROMPT_INSTRUCTIONS, type ProgressConfig, type ProgressEmission, type ProgressRange, ProgressTextFilter, ProgressTracker, type ProgressTrackerOptions, type ProgressTrackerState, type RoundtripPhase, type StepRange, type StepRangeOptions, type TaskHistory, type TaskHistoryRun, type WeightedStep, type WorkflowCall, type WorkflowStep, computeStepRanges, estimateProgress, extractModelProgress, loadProgressConfig, mapProgressToRange, parseWorkflow, progressConfigSchema, progressTrackerStateSchema, stripModelProgress, taskHistorySchema, workflowStepPercent };
//# sourceMappingURL=index.d.ts.map