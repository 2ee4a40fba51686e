import type { ProgressReporter } from '@headway/protocol';
import type { ToolContext } from '@headway/runtime';
import type { NestedProgress, ProgressSlice } from './progress-slice.js';

/** Options of {@link createNestedBar}. */
export interface NestedBarOptions {
  /**
   * Share of the bar left below `ceiling` that one MCP call may fill (default 0.5). The runtime
   * does not tell a tool its slice, so the slice starts where the bar stands when the call starts.
   */
  share?: number;
  /** The call's slice never reaches past this percent (default 95: 100 is for the end of the run). */
  ceiling?: number;
}

/** A reporter whose bar MCP tools' own progress moves, within each call's slice. */
export interface NestedBar {
  /** Pass as the runtime's `progressReporter`: forwards to the wrapped one, never backwards. */
  reporter: ProgressReporter;
  /** Pass to `mcpTools` as `onProgress`. */
  onProgress: (update: NestedProgress) => void;
  /** Pass to `mcpTools` as `slice`. */
  slice: (ctx: ToolContext) => ProgressSlice;
}

/**
 * Nests MCP tools' own progress in a reporter's bar: the run's progress and each call's progress
 * (mapped into the call's slice) drive one bar that never goes back. A notification without a
 * total shows its message and leaves the bar where it is.
 *
 * @example
 * ```ts
 * const bar = createNestedBar(new CLIReporter());
 * const server = await mcpTools({ command: 'node', args: ['server.js'] }, { onProgress: bar.onProgress, slice: bar.slice });
 * const runtime = new AgentRuntime(config, { provider, tools: server.tools, progressReporter: bar.reporter });
 * ```
 */
export function createNestedBar(target: ProgressReporter, options: NestedBarOptions = {}): NestedBar {
  const share = Math.min(1, Math.max(0, options.share ?? 0.5));
  const ceiling = Math.min(100, Math.max(0, options.ceiling ?? 95));
  let last = 0;
  const show = (percent: number, label: string): void => {
    last = Math.max(last, percent);
    target.onProgress(last, label);
  };
  const reporter: ProgressReporter = {
    onStart: (task) => {
      last = 0;
      target.onStart(task);
    },
    onProgress: show,
    onToolStart: (name) => {
      target.onToolStart(name);
    },
    onToolDone: (name, summary) => {
      target.onToolDone(name, summary);
    },
    onIteration: (i, max) => {
      target.onIteration(i, max);
    },
    onComplete: (summary) => {
      target.onComplete(summary);
    },
    onError: (error) => {
      target.onError(error);
    },
  };
  return {
    reporter,
    onProgress: (update) => {
      show(update.percent ?? last, update.message ?? `${update.tool} working`);
    },
    slice: () => {
      const lo = Math.min(last, ceiling);
      return { lo, hi: lo + (ceiling - lo) * share };
    },
  };
}
