// `headway cost` and `headway runs` say what a spend total leaves out: the calls of a model with
// no price, counted from each run's cost by model in its checkpoint, in the dashboard's words.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '@headway/protocol';
import type { ModelCost } from '@headway/runtime';
import { SqliteCheckpointStore, SqliteSessionStore } from '@headway/store-sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../main.js';

const dir = mkdtempSync(join(tmpdir(), 'headway-cost-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});
const db = join(dir, 'agent.db');
const clock = new ManualClock({ start: 1_000_000 });

async function headway(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io = {
    stdout: { write: (chunk: string) => ((stdout += chunk), true) } as unknown as NodeJS.WritableStream,
    stderr: { write: (chunk: string) => ((stderr += chunk), true) },
    env: {},
    clock,
  };
  const code = await main(args, io);
  return { code, stdout, stderr };
}

const priced: ModelCost = { model: 'openai/gpt-4o', calls: 2, inputTokens: 1000, outputTokens: 100, spentUsd: 0.01, unpricedCalls: 0 };
const local = (unpricedCalls: number): ModelCost => ({
  model: 'local/llama-3',
  calls: unpricedCalls,
  inputTokens: 500,
  outputTokens: 50,
  spentUsd: 0,
  unpricedCalls,
});

beforeAll(() => {
  const checkpoints = new SqliteCheckpointStore(db, { clock });
  const sessions = new SqliteSessionStore(checkpoints.database);
  const state = (spentUsd: number, costByModel: ModelCost[]) => ({
    iteration: 3,
    toolsUsed: [],
    usage: { inputTokens: 1500, outputTokens: 150 },
    spentUsd,
    providerCalls: 4,
    costByModel,
  });
  const run = { input: 'task', messages: [], log: [] };
  // Session s-mixed: one run with 2 unpriced calls, one with 1; session s-priced: none.
  checkpoints.create({
    ...run,
    sessionId: 's-mixed',
    id: 'cp-a',
    runId: 'run-a',
    taskId: 't-a',
    state: state(0.01, [priced, local(2)]),
  });
  checkpoints.create({ ...run, sessionId: 's-mixed', id: 'cp-b', runId: 'run-b', taskId: 't-b', state: state(0, [local(1)]) });
  checkpoints.create({ ...run, sessionId: 's-priced', id: 'cp-c', runId: 'run-c', taskId: 't-c', state: state(0.25, [priced]) });
  checkpoints.complete('cp-b');
  checkpoints.complete('cp-c');
  sessions.create('s-mixed');
  sessions.recordRun('s-mixed', { messages: [], spentUsd: 0.01, calls: 8 });
  sessions.create('s-priced');
  sessions.recordRun('s-priced', { messages: [], spentUsd: 0.25, calls: 4 });
  checkpoints.close();
});

describe('headway cost: spend totals say what they leave out', () => {
  it('per session, and in the total', async () => {
    const { code, stdout } = await headway(['cost', '--store', `sqlite:${db}`]);
    expect(code).toBe(0);
    expect(stdout.split('\n').sort()).toEqual(
      [
        'SESSION   RUNS  CALLS  SPENT',
        's-mixed   1     8      $0.0100 (excludes 3 unpriced calls)',
        's-priced  1     4      $0.2500',
        'total $0.2600 (excludes 3 unpriced calls) over 2 sessions',
        '',
      ].sort(),
    );
    const json = JSON.parse((await headway(['cost', '--json', '--store', `sqlite:${db}`])).stdout) as {
      sessions: { sessionId: string; unpricedCalls: number }[];
      unpricedCalls: number;
    };
    expect(json.unpricedCalls).toBe(3);
    expect(Object.fromEntries(json.sessions.map((s) => [s.sessionId, s.unpricedCalls]))).toEqual({ 's-mixed': 3, 's-priced': 0 });
  });

  it('run by run in one session', async () => {
    const { stdout } = await headway(['cost', '--session', 's-mixed', '--store', `sqlite:${db}`]);
    const lines = stdout.split('\n');
    expect(lines[0]).toBe('session s-mixed: $0.0100 (excludes 3 unpriced calls) over 8 calls in 1 runs');
    expect(lines[1]).toBe('RUN    CHECKPOINT  STATUS       ITERATION  CALLS  TOKENS IN  TOKENS OUT  SPENT');
    expect(lines.slice(2, 4).sort()).toEqual([
      'run-a  cp-a        interrupted  3          4      1500       150         $0.0100 (excludes 2 unpriced calls)',
      'run-b  cp-b        completed    3          4      1500       150         $0.0000 (excludes 1 unpriced call)',
    ]);
    const priced = await headway(['cost', '--session', 's-priced', '--store', `sqlite:${db}`]);
    expect(priced.stdout.split('\n')[0]).toBe('session s-priced: $0.2500 over 4 calls in 1 runs');
    const json = JSON.parse((await headway(['cost', '--session', 's-mixed', '--json', '--store', `sqlite:${db}`])).stdout) as {
      unpricedCalls: number;
      runs: { id: string; unpricedCalls: number }[];
    };
    expect(json.unpricedCalls).toBe(3);
    expect(Object.fromEntries(json.runs.map((r) => [r.id, r.unpricedCalls]))).toEqual({ 'cp-a': 2, 'cp-b': 1 });
  });
});

describe('headway runs: the spend of a run says what it leaves out', () => {
  it('in the list and on the run', async () => {
    const list = await headway(['runs', 'list', '--all', '--store', `sqlite:${db}`]);
    const rows = list.stdout.split('\n').map((line) => line.split(/ {2,}/));
    expect(rows[0]?.[6]).toBe('SPENT');
    expect(Object.fromEntries(rows.slice(1, 4).map((r) => [r[0], r[6]]))).toEqual({
      'run-a': '$0.0100 (excludes 2 unpriced calls)',
      'run-b': '$0.0000 (excludes 1 unpriced call)',
      'run-c': '$0.2500',
    });
    const show = await headway(['runs', 'show', 'run-a', '--store', `sqlite:${db}`]);
    expect(show.stdout.split('\n')).toContain('spent      $0.0100 (excludes 2 unpriced calls)');
    const json = JSON.parse((await headway(['runs', 'show', 'run-c', '--json', '--store', `sqlite:${db}`])).stdout) as {
      spentUsd: number;
      unpricedCalls: number;
    };
    expect(json).toMatchObject({ spentUsd: 0.25, unpricedCalls: 0 });
  });
});
