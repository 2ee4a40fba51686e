import type { NoticeLevel } from './event-text.js';
import { RunningCalls } from './running-calls.js';

/** A tool call that has started and not finished. */
export interface RunningTool {
  name: string;
  id: string | undefined;
  startedAt: number;
}

/** A tool call that has finished. */
export interface FinishedTool {
  name: string;
  ok: boolean;
  durationMs: number;
  preview: string;
}

/** A warning or note shown in the live block. */
export interface LiveNotice {
  level: NoticeLevel;
  text: string;
  /** A later notice with the same key replaces this one (e.g. the latest checkpoint). */
  key: string | undefined;
}

/** How the run ended, once it has. */
export interface LiveOutcome {
  kind: 'completed' | 'limit' | 'error' | 'cancelled';
  text: string;
  durationMs: number;
}

/** One item of the agent's plan, as the live block shows it. */
export interface LivePlanItem {
  text: string;
  status: 'pending' | 'in_progress' | 'completed';
}

/**
 * What the live block shows, updated by reporter calls and events. Plain data plus small
 * update methods, so the frame is a pure function of it and of the clock.
 */
export class LiveState {
  task = '';
  startedAt: number;
  percent: number | undefined = undefined;
  /** The percent is a guess (shown as `~12%`, without an ETA). */
  guess = false;
  /** Which of the agent's plans the percent follows, from the second on. */
  planNumber: number | undefined = undefined;
  label = '';
  /** The point ETA and, when known, its range (p10–p90), as of `at`. */
  eta: { ms: number; at: number; lowMs?: number; highMs?: number } | undefined = undefined;
  /** The agent's latest plan, pinned under the bar. */
  plan: LivePlanItem[] | undefined = undefined;
  iteration: { index: number; max: number } | undefined = undefined;
  /** The calls that have started and not finished, indexed so a completion never searches them. */
  readonly running: RunningCalls = new RunningCalls();
  finished: FinishedTool[] = [];
  toolCalls = 0;
  failedTools = 0;
  notices: LiveNotice[] = [];
  outcome: LiveOutcome | undefined = undefined;

  constructor(
    now: number,
    private readonly keepTools: number,
    private readonly keepNotices: number,
  ) {
    this.startedAt = now;
  }

  progress(
    percent: number,
    label: string,
    now: number,
    etaMs?: number,
    range?: { lowMs?: number | undefined; highMs?: number | undefined },
    mark?: { guess?: boolean | undefined; plan?: number | undefined },
  ): void {
    if (Number.isFinite(percent)) this.percent = Math.min(100, Math.max(0, percent));
    this.label = label;
    this.guess = mark?.guess === true;
    this.planNumber = mark?.plan;
    // A guessed percent has no ETA worth showing.
    this.eta = etaMs === undefined || !Number.isFinite(etaMs) || this.guess ? undefined : { ms: Math.max(0, etaMs), at: now };
    const low = range?.lowMs;
    const high = range?.highMs;
    if (this.eta !== undefined && low !== undefined && high !== undefined && Number.isFinite(low) && Number.isFinite(high)) {
      this.eta.lowMs = Math.max(0, low);
      this.eta.highMs = Math.max(0, high);
    }
  }

  toolStarted(name: string, id: string | undefined, now: number): void {
    this.running.start(name, id, now);
  }

  /** Ends the matching running call (by id, else the oldest of that name); its duration is measured when not given. */
  toolFinished(name: string, id: string | undefined, ok: boolean, now: number, durationMs?: number, preview = ''): void {
    const started = this.running.finish(name, id);
    const measured = started === undefined ? 0 : Math.max(0, now - started.startedAt);
    this.finished.push({ name, ok, durationMs: durationMs ?? measured, preview });
    if (this.finished.length > this.keepTools) this.finished.splice(0, this.finished.length - this.keepTools);
    this.toolCalls += 1;
    if (!ok) this.failedTools += 1;
  }

  notice(level: LiveNotice['level'], text: string, key?: string): void {
    if (key !== undefined) this.notices = this.notices.filter((n) => n.key !== key);
    this.notices.push({ level, text, key });
    if (this.notices.length > this.keepNotices) this.notices.splice(0, this.notices.length - this.keepNotices);
  }

  finish(outcome: LiveOutcome): void {
    this.outcome = outcome;
    this.running.clear();
    if (outcome.kind === 'completed') {
      this.guess = false;
      this.percent = 100;
      this.eta = undefined;
    }
  }
}
