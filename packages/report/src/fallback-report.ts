import type { ProgressReport, ProgressReportStats, StopReason } from '@headway/protocol';
import { extractPlan } from './plan.js';
import { cutText, emptyLists, formatCount, LIST_KEYS, oneLine } from '@headway/protocol/internal';
import { describeCall, describeTallies, type ToolCallLog } from './tool-call-log.js';
import type { ToolCallEntry } from './tool-call-log-state.js';

/** What {@link buildFallbackReport} builds a report from. */
export interface FallbackReportContext {
  task: string;
  log: ToolCallLog;
  reason: StopReason;
  stats: ProgressReportStats;
  /**
   * Work in flight when the run stopped (e.g. `read_file: started, not finished`), listed first
   * under Not Started / Remaining.
   */
  unfinished?: readonly string[];
  /**
   * Most items per section (default 100): a very long run keeps the first fifth and the most
   * recent ones and says how many it left out, so the report stays a usable prompt.
   */
  maxItemsPerSection?: number;
}

interface CallGroup {
  call: string;
  name: string;
  iterations: number[];
  ok: ToolCallEntry[];
  failed: ToolCallEntry[];
  empty: ToolCallEntry[];
}

const EMPTY_RESULT =
  /^(?:\[\s*\]|\{\s*\}|null|undefined|""|''|none|n\/a|no (?:results?|matches?|files?|records?|data)(?: found)?\.?|nothing found\.?|not found\.?|0 (?:results?|matches?|files?|records?)(?: found)?\.?)$/i;

/** True for a result that carries no information: blank, `[]`, `{}`, `null`, "No results found". */
function isEmptyResult(brief: string): boolean {
  const text = oneLine(brief);
  return text === '' || EMPTY_RESULT.test(text);
}

function iterationList(iterations: readonly number[]): string {
  const shown = iterations.slice(0, 6).join(', ');
  const label = iterations.length === 1 ? 'iteration' : 'iterations';
  return iterations.length > 6 ? `${label} ${shown}, …` : `${label} ${shown}`;
}

function capList(items: string[], max: number): string[] {
  if (items.length <= max) return items;
  const first = Math.max(1, Math.floor(max / 5));
  const last = Math.max(1, max - first - 1);
  const left = items.length - first - last;
  return [...items.slice(0, first), `(${formatCount(left)} more items left out; see the tool-call log)`, ...items.slice(-last)];
}

function groupCalls(calls: readonly ToolCallEntry[]): CallGroup[] {
  const groups = new Map<string, CallGroup>();
  for (const c of calls) {
    const call = describeCall(c);
    let g = groups.get(call);
    if (g === undefined) {
      g = { call, name: c.name, iterations: [], ok: [], failed: [], empty: [] };
      groups.set(call, g);
    }
    g.iterations.push(c.iteration);
    if (!c.ok) g.failed.push(c);
    else if (isEmptyResult(c.resultBrief)) g.empty.push(c);
    else g.ok.push(c);
  }
  return [...groups.values()];
}

/**
 * Builds the progress report from the tool-call log alone, for when the model cannot write
 * one (it failed, timed out, or was never asked): the same schema, `generatedBy: 'fallback'`.
 *
 * - Completed Work: the completed items of the agent's latest plan (`log.recordPlan`), else
 *   plan steps the model marked done in its text; successful calls with a result, and the
 *   counts of a summarised middle.
 * - Key Findings: each distinct result brief (`search({"query":"auth"}) → Found 15 …`)
 *   and the model's own notes, in order.
 * - Attempted but Inconclusive: failed calls, empty results, calls repeated with the same
 *   arguments, failures inside the summarised middle.
 * - Not Started / Remaining: work in flight when the run stopped (`unfinished`), items of the
 *   agent's latest plan not completed (else the steps of the plan in its text not yet done); with
 *   no plan, the task itself: a run that stopped short never has nothing left.
 * - Suggested Next Steps: derived from the above; never empty.
 *
 * Deterministic (same log, same report) and never empty when the log has content. Each
 * section holds at most `maxItemsPerSection` items (default 100).
 *
 * @example
 * ```ts
 * const report = buildFallbackReport({ task, log, reason: 'max-iterations', stats: { iterations: 30, toolCalls: log.toolCallCount, elapsedMs } });
 * console.log(renderProgressReport(report));
 * ```
 */
export function buildFallbackReport(ctx: FallbackReportContext): ProgressReport {
  const { head, omitted, recent } = ctx.log.parts();
  const entries = [...head, ...recent];
  const calls = entries.filter((e): e is ToolCallEntry => e.kind === 'tool');
  const groups = groupCalls(calls);
  const plan = extractPlan(entries);
  const lists = emptyLists();

  // Completed Work
  // The agent's own plan (its update_plan tool) is the better record; model text is the fallback.
  const kept = ctx.log.plan;
  if (kept !== undefined) {
    for (const item of kept) if (item.status === 'completed') lists.completedWork.push(`Plan item done: ${oneLine(item.text)}`);
  } else {
    for (const s of plan?.steps ?? []) if (s.done) lists.completedWork.push(`Plan step ${s.number} done: ${s.text}`);
  }
  for (const g of groups) if (g.ok.length > 0) lists.completedWork.push(`${g.call} (${iterationList(g.ok.map((c) => c.iteration))})`);
  if (omitted !== undefined) {
    const notes = omitted.texts > 0 ? ` and ${formatCount(omitted.texts)} notes` : '';
    lists.completedWork.push(
      `Iterations ${omitted.firstIteration}–${omitted.lastIteration} (summarised): ${formatCount(omitted.toolCalls)} tool calls${notes} — ${describeTallies(omitted) || 'no tool calls'}`,
    );
  }

  // Key Findings
  const seenFindings = new Set<string>();
  for (const e of entries) {
    let finding: string;
    if (e.kind === 'text') {
      if (e === plan?.source) continue;
      finding = `Model note (iteration ${e.iteration}): ${oneLine(e.text)}`;
    } else {
      if (!e.ok || isEmptyResult(e.resultBrief)) continue;
      finding = `${describeCall(e)} → ${oneLine(e.resultBrief)}`;
    }
    if (seenFindings.has(finding)) continue;
    seenFindings.add(finding);
    lists.keyFindings.push(finding);
  }

  // Attempted but Inconclusive
  for (const g of groups) {
    const last = g.failed.at(-1);
    if (last !== undefined) {
      const times = g.failed.length === 1 ? '' : ` ${g.failed.length} times`;
      const why = oneLine(last.resultBrief);
      lists.attemptedInconclusive.push(
        `${g.call} failed${times} (${iterationList(g.failed.map((c) => c.iteration))})${why === '' ? '' : `: ${cutText(why, 200)}`}`,
      );
    }
    if (g.empty.length > 0)
      lists.attemptedInconclusive.push(`${g.call} returned nothing (${iterationList(g.empty.map((c) => c.iteration))})`);
    // A call that failed every time is already listed as failed; repeating it is news only otherwise.
    if (g.iterations.length > 1 && g.failed.length < g.iterations.length)
      lists.attemptedInconclusive.push(
        `${g.call} was called ${g.iterations.length} times with the same arguments (${iterationList(g.iterations)})`,
      );
  }
  const middleFailures = omitted?.tools.reduce((n, t) => n + t.failures, omitted.otherTools?.failures ?? 0) ?? 0;
  if (omitted !== undefined && middleFailures > 0) {
    const failing = omitted.tools.filter((t) => t.failures > 0).map((t) => `${t.name} ×${formatCount(t.failures)}`);
    if ((omitted.otherTools?.failures ?? 0) > 0) failing.push(`other tools ×${formatCount(omitted.otherTools?.failures ?? 0)}`);
    lists.attemptedInconclusive.push(
      `${formatCount(middleFailures)} failed calls in the summarised iterations ${omitted.firstIteration}–${omitted.lastIteration}: ${failing.join(', ')}`,
    );
    for (const f of omitted.failureSamples) {
      const why = oneLine(f.resultBrief);
      lists.attemptedInconclusive.push(`${describeCall(f)} failed (iteration ${f.iteration})${why === '' ? '' : `: ${cutText(why, 200)}`}`);
    }
  }

  // Not Started / Remaining
  const open =
    kept === undefined
      ? (plan?.steps ?? []).filter((s) => !s.done)
      : kept.flatMap((item, i) =>
          item.status === 'completed' ? [] : [{ number: i + 1, text: oneLine(item.text), current: item.status === 'in_progress' }],
        );
  for (const u of ctx.unfinished ?? []) lists.remaining.push(oneLine(u));
  for (const s of open) lists.remaining.push('current' in s && s.current ? `${s.text} (in progress)` : s.text);
  if (open.length === 0)
    lists.remaining.push(`The task, not finished when the run stopped: ${cutText(oneLine(ctx.task), 200) || '(not stated)'}`);

  // Suggested Next Steps
  const next = lists.suggestedNextSteps;
  const [first, ...others] = open;
  if (first !== undefined) {
    next.push(`Resume the plan at ${kept === undefined ? 'step' : 'item'} ${first.number}: ${first.text}`);
    if (others.length > 0)
      next.push(
        `Then do the other ${others.length} remaining plan step${others.length === 1 ? '' : 's'} (${others.map((s) => s.number).join(', ')})`,
      );
  }
  const failedTools = new Map<string, ToolCallEntry[]>();
  for (const g of groups) if (g.failed.length > 0) failedTools.set(g.name, [...(failedTools.get(g.name) ?? []), ...g.failed]);
  for (const [name, failures] of failedTools) {
    const why = oneLine(failures.at(-1)?.resultBrief ?? '');
    const times = failures.length === 1 ? 'once' : `${failures.length} times`;
    next.push(
      `Find out why ${name} failed (${times}${why === '' ? '' : `, last error: ${cutText(why, 100)}`}) and retry with corrected arguments or another tool`,
    );
  }
  const empties = groups.filter((g) => g.empty.length > 0 && g.ok.length === 0).map((g) => g.call);
  if (empties.length > 0) {
    const shown = empties.slice(0, 3).join('; ');
    next.push(
      `Rephrase or broaden the calls that returned nothing: ${shown}${empties.length > 3 ? `; and ${empties.length - 3} more` : ''}`,
    );
  }
  for (const g of groups.filter((x) => x.iterations.length > 1 && x.ok.length > 0).slice(0, 3)) {
    next.push(`Do not call ${g.call} again: its result is under Key Findings`);
  }
  if (first === undefined) {
    const task = cutText(oneLine(ctx.task), 200);
    next.push(
      lists.keyFindings.length > 0 || lists.completedWork.length > 0
        ? `Check the Key Findings against the task and finish it: ${task}`
        : `Start the task: ${task}`,
    );
  }

  const max =
    ctx.maxItemsPerSection !== undefined && Number.isFinite(ctx.maxItemsPerSection) ? Math.max(3, Math.floor(ctx.maxItemsPerSection)) : 100;
  for (const key of LIST_KEYS) lists[key] = capList(lists[key], max);
  return { task: ctx.task, reason: ctx.reason, ...lists, stats: { ...ctx.stats }, generatedBy: 'fallback' };
}
