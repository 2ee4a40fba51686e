// The shapes the dashboard's server sends its browser page, types only: the server builds them
// (dashboard-runs.ts, dashboard-run-detail.ts, run-view.ts) and the page's schema (page/frames.ts,
// which compiles with DOM types and no Node types) is checked against them at compile time. No
// import here, so both sides can include this file.

/** The actions `POST /api/runs/<id>/<action>` takes. */
export type DashboardAction = 'continue' | 'resume' | 'abandon' | 'cancel';

/** One run as the list and the run page show it; every text already redacted. */
export interface DashboardRun {
  /** The checkpoint's id (what `headway runs` takes). */
  id: string;
  runId: string;
  /** The run this one continued. */
  parentRunId?: string;
  /** The task as the run was given it (a continuation's original task). */
  task: string;
  sessionId: string;
  taskId: string;
  /** The `agentName` the run was configured with (empty for a checkpoint that does not say). */
  agent: string;
  /** `running` or one word of the run-end vocabulary (see `dashboardRunState`). */
  state: string;
  stateText: string;
  active: boolean;
  /**
   * What can be done to the run in its state (`POST /api/runs/<id>/<action>`), from the server's
   * one table: `['resume', 'abandon']` when interrupted, `['cancel']` when running, `['continue']`
   * when it stopped short, none when completed. An action not listed answers 409.
   */
  actions: DashboardAction[];
  iteration: number;
  /** What the run's priced calls cost (USD). Calls of a model with no price are not in it: see `unpricedCalls`. */
  spentUsd: number;
  /**
   * Calls of a model with no price: what they cost is unknown, so `spentUsd` excludes them (the page
   * says so next to the total). 0 for a checkpoint written before the runtime kept cost by model.
   */
  unpricedCalls: number;
  inputTokens: number;
  outputTokens: number;
  toolsUsed: string[];
  /** Epoch ms the run started (its checkpoint's creation). */
  startedAt: number;
  /** Epoch ms of its last write. */
  updatedAt: number;
  /** The estimator's percent (0–100), from the tracker state the run saved. */
  percent: number;
  /** The ETA range (ms), while the run is live and the estimator has one. */
  etaLowMs?: number;
  etaHighMs?: number;
  error?: string;
}

/** What one model cost a run, as the run page shows it. */
export interface DashboardModelCost {
  /** The provider and model id (`openai/gpt-4o`), as the runtime priced it. */
  model: string;
  /** Provider calls made with it. */
  calls: number;
  inputTokens: number;
  outputTokens: number;
  /**
   * USD, or `null` when the model has no price in the runtime's price table (some or all of its
   * calls cost an unknown amount): the page shows "unpriced", never $0.
   */
  spentUsd: number | null;
}

/** One tool call of a step, as the run page shows it. */
export interface DashboardToolCall {
  name: string;
  /** The arguments as JSON text (cut at `MAX_VIEW_TEXT`). */
  args: string;
  /** The result the model was given; absent while the call has not finished. */
  result?: string;
}

/** One iteration of a run: what the model wrote and the tools it called. */
export interface DashboardStep {
  /** 1-based. */
  iteration: number;
  /** What the model wrote in this iteration (its streamed text, as it ended). */
  text: string;
  tools: DashboardToolCall[];
}

/** The agent's plan as the estimator last read it. */
export interface DashboardPlan {
  total: number;
  completed: number;
  inProgress: number;
}

/** A run's steps, tools, text and plan, rebuilt from its checkpoint; every text already redacted. */
export interface DashboardRunView {
  steps: DashboardStep[];
  /** Steps left out at the start to stay within `MAX_VIEW_STEPS`. */
  omittedSteps: number;
  plan?: DashboardPlan;
  /** The step the estimator says is under way, and those it saw finish. */
  currentStep?: string;
  finishedSteps: string[];
}

/** What the run page shows of one run. */
export interface DashboardRunDetail {
  run: DashboardRun;
  /**
   * Calls, tokens and money per model, in order of first use (empty for a run checkpointed before
   * the runtime kept it). A continuation is a run of its own: its chain's runs each have theirs.
   */
  costByModel: DashboardModelCost[];
  /** Runs that continue this one (their `parentRunId` is its run id). */
  continuations: string[];
  /** The chain of continuations this run is part of, oldest first (just this run when it is alone). */
  chain: string[];
  view: DashboardRunView;
  /**
   * The saved progress report (`<reportsDir>/<runId>.json`) as HTML: redacted, rendered by
   * `@headway/report/html` (markdown-it with raw HTML off, no images, safe links).
   */
  reportHtml?: string;
  /** Why the saved report could not be read (a file that does not validate). */
  reportError?: string;
}
