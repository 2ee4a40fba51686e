import type { ProgressEvent } from '@headway/protocol';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { recordRun } from '../test-run.test-util.js';
import { applyEvent, initialState, type DashboardState } from './dashboard-state.js';

function replay(events: readonly ProgressEvent[], from?: DashboardState): DashboardState {
  return events.reduce(applyEvent, from ?? initialState(events[0]?.runId ?? 'run'));
}

describe('dashboard state', () => {
  let completed: ProgressEvent[];
  let limited: ProgressEvent[];
  beforeAll(async () => {
    [completed, limited] = await Promise.all([recordRun({}), recordRun({ maxIterations: 3 })]);
  });

  it('shows a completed run: every tool once, the answer, 100%', () => {
    const state = replay(completed);
    expect(state.eventCount).toBe(completed.length);
    expect(state.lastSeq).toBe(completed.at(-1)?.seq);
    expect(state.percent).toBe(100);
    expect(state.running).toEqual([]);
    expect(state.finished.map((t) => t.name)).toEqual([
      'search_library',
      'read_document',
      'read_document',
      'read_document',
      'read_document',
      'compute_stats',
    ]);
    expect(state.finished.every((t) => t.ok === true && t.preview !== undefined && t.durationMs !== undefined)).toBe(true);
    expect(state.outcome?.kind).toBe('completed');
    expect(state.outcome?.text).toMatch(/^I read 4 documents about sorting algorithms\./);
    expect(state.outcome?.text).toContain('Published between 1945 and 1964 (mean 1954).');
    expect(state.outcome?.text).toContain('Recommendation: merge sort.');
    expect(state.texts.map((t) => t.step)).toEqual(['llm-1', 'llm-2', 'llm-3', 'llm-4', 'llm-5']);
    // The model's `_progress` block is not shown as text.
    expect(state.texts.some((t) => t.text.includes('_progress'))).toBe(false);
  });

  it('shows a run stopped at its iteration limit: the warnings and the report', () => {
    const state = replay(limited);
    expect(state.outcome?.kind).toBe('limit');
    expect(state.warnings.map((w) => w.text)).toEqual([
      'Approaching the iteration limit: 2 of 3 used',
      'Reached the iteration limit (3): the agent writes a progress report',
    ]);
    expect(state.report?.reason).toBe('max-iterations');
    expect(state.report?.completedWork).toContain('Read Merge sort');
    expect(state.percent).toBeLessThan(100);
  });

  it('shows a run that ran out of time: the wind-down warning and the report', async () => {
    // Real time: the budget runs out during the second round.
    const state = replay(await recordRun({ timeBudgetMs: 500 }, { modelDelayMs: 150, toolDelayMs: 100 }));
    expect(state.outcome?.kind).toBe('limit');
    expect(state.warnings.map((w) => w.kind)).toEqual(expect.arrayContaining(['limit.reached', 'wind-down.started']));
    expect(state.warnings.find((w) => w.kind === 'wind-down.started')?.text).toBe(
      'Winding down (time-budget): 4 more iteration(s) to wrap up and report',
    );
    expect(state.report?.reason).toBe('time-budget');
  });

  it('a running tool is listed until it completes', () => {
    const executing = completed.findIndex((e) => e.type === 'tool.executing');
    const midTool = replay(completed.slice(0, executing + 1));
    expect(midTool.running.map((r) => r.name)).toEqual(['search_library']);
    expect(midTool.finished).toEqual([]);
    const after = applyEvent(midTool, completed[executing + 1]!);
    expect(after.running).toEqual([]);
    expect(after.finished.map((r) => r.callId)).toEqual([midTool.running[0]?.callId]);
  });

  it('resuming at any point, with any overlap, gives the state of one clean pass', () => {
    const full = replay(completed);
    fc.assert(
      fc.property(fc.nat({ max: completed.length }), fc.nat({ max: 20 }), (cut, overlap) => {
        const before = replay(completed.slice(0, cut), initialState(full.runId));
        // A resumed stream may repeat events the page already had: they change nothing.
        const resumed = replay(completed.slice(Math.max(0, cut - overlap)), before);
        expect(resumed).toEqual(full);
      }),
    );
  });

  it('ignores events of another run and events it already applied', () => {
    const state = replay(completed.slice(0, 5));
    expect(applyEvent(state, { ...completed[5]!, runId: 'other' })).toBe(state);
    expect(applyEvent(state, completed[4]!)).toBe(state);
  });

  it('never moves the bar back', () => {
    let state = replay(completed.slice(0, 1));
    const runId = state.runId;
    const progress = (seq: number, percent: number): ProgressEvent => ({ type: 'progress', runId, seq, ts: 0, percent });
    state = applyEvent(state, progress(100, 40));
    state = applyEvent(state, progress(101, 30));
    expect(state.percent).toBe(40);
  });

  it('keeps the latest plan and the ETA range, and drops the range when an update has none', () => {
    let state = replay(completed.slice(0, 1));
    const runId = state.runId;
    state = applyEvent(state, { type: 'plan.updated', runId, seq: 100, ts: 0, items: [{ text: 'Search', status: 'in_progress' }] });
    state = applyEvent(state, {
      type: 'plan.updated',
      runId,
      seq: 101,
      ts: 0,
      items: [
        { text: 'Search', status: 'completed' },
        { text: 'Read', status: 'in_progress' },
      ],
    });
    state = applyEvent(state, {
      type: 'progress',
      runId,
      seq: 102,
      ts: 0,
      percent: 60,
      etaMs: 90_000,
      etaLowMs: 20_000,
      etaHighMs: 600_000,
    });
    expect(state.plan?.map((i) => i.status)).toEqual(['completed', 'in_progress']);
    expect([state.etaMs, state.etaLowMs, state.etaHighMs]).toEqual([90_000, 20_000, 600_000]);
    state = applyEvent(state, { type: 'progress', runId, seq: 103, ts: 0, percent: 70, etaMs: 30_000 });
    expect([state.etaMs, state.etaLowMs, state.etaHighMs]).toEqual([30_000, undefined, undefined]);
  });
});
