import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { coldStartPercent } from './cold-start.js';
import { replayProgress } from './replay-progress.js';

// A recorded Claude Code session of 93 iterations (several issues, one todo list each; the
// first plan comes at iteration 20), reduced to structure and timing: OpenAgentsInc/openagents
// (Apache-2.0), docs/logs/20251222/170100-call-issue-ready-now-to.jsonl, session 0.
const session = readFileSync(join(import.meta.dirname, '..', 'test', 'fixtures', 'claude-code-session-93.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line) as { type: string; ts: number });

/** What the bar showed right after the n-th model call began. */
function atIteration(points: ReturnType<typeof replayProgress>, n: number): ReturnType<typeof replayProgress>[number] {
  const started = session.filter((e) => e.type === 'step.started')[n - 1];
  if (started === undefined) throw new Error(`no iteration ${n}`);
  const point = points.findLast((p) => p.ts <= started.ts);
  if (point === undefined) throw new Error(`nothing shown by iteration ${n}`);
  return point;
}

describe('cold start: no cap, no plan, no history', () => {
  it('rises over the first iterations, flattens, and never claims the end is near', () => {
    expect(coldStartPercent(0)).toBe(0);
    expect(coldStartPercent(Number.NaN)).toBe(0);
    // 75 · √p / (√p + 2): the shipped ceiling 75, half at 4 iterations, shape 0.5.
    expect(coldStartPercent(1)).toBe(25);
    expect(coldStartPercent(3)).toBeCloseTo(34.81, 2);
    expect(coldStartPercent(4)).toBe(37.5);
    expect(coldStartPercent(15)).toBeCloseTo(49.46, 2);
    expect(coldStartPercent(1e9)).toBeLessThan(75);
  });

  it('follows the tuning it is given', () => {
    const hyperbola = { ceiling: 90, half: 30, shape: 1, historyWeight: 1 };
    expect(coldStartPercent(15, hyperbola)).toBe(30);
    expect(coldStartPercent(30, hyperbola)).toBe(45);
  });

  it('shows at most 50% at iteration 15 of the recorded 93-iteration session, marked as a guess without an ETA', () => {
    const points = replayProgress(session, { maxIterations: Number.POSITIVE_INFINITY });
    const p15 = atIteration(points, 15);
    expect(p15.percent).toBeLessThanOrEqual(50);
    expect(p15.guess).toBe(true);
    expect(p15.etaMs).toBeUndefined();
    expect(points.at(-1)).toMatchObject({ percent: 100 });
    expect(points.at(-1)?.guess).toBeUndefined();
    // Once the agent keeps a plan current, the percent is not a guess any more.
    expect(points.some((p) => p.guess === undefined && p.percent < 100)).toBe(true);
  });

  it('uses a cap when there is one: not a guess', () => {
    const points = replayProgress(session, { maxIterations: 100 });
    expect(points.every((p) => p.guess === undefined)).toBe(true);
  });

  it('counts a new list after a finished one as the next plan', () => {
    const points = replayProgress(session, { maxIterations: Number.POSITIVE_INFINITY });
    const plans = [...new Set(points.map((p) => p.plan))];
    expect(plans[0]).toBeUndefined();
    expect(plans.slice(1)).toEqual(plans.slice(1).map((_, i) => i + 2));
    expect(plans.length).toBeGreaterThan(1);
  });
});
