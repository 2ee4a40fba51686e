// `headway runs` on runs a real runtime left in a real SQLite store: one state word per run, runs
// found by the run id events print, and the chain limit → report → continue → completed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '@headway/protocol';
import { AgentRuntime, defineTool, readRunReport, saveRunReport } from '@headway/runtime';
import { ScriptedProvider } from '@headway/runtime/testing';
import { SqliteCheckpointStore } from '@headway/store-sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { main } from '../main.js';

const dir = mkdtempSync(join(tmpdir(), 'headway-runs-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});
const db = join(dir, 'agent.db');
const reports = join(dir, 'reports');
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

const read = defineTool({
  name: 'read_file',
  description: 'Read a file',
  parameters: z.object({ path: z.string() }),
  execute: ({ path }) => `${path}: headway makes agent loops legible`,
});

function runtimeWith(script: ConstructorParameters<typeof ScriptedProvider>[0], store: SqliteCheckpointStore, prefix: string) {
  let n = 0;
  return new AgentRuntime(
    { provider: 'scripted', maxIterations: 2 },
    { provider: new ScriptedProvider(script), tools: [read], checkpointStore: store, clock, generateId: () => `${prefix}-${++n}` },
  );
}

describe('headway runs on a limit → report → continue → completed chain', () => {
  it('shows each run in one state word, finds it by run id, and continues it from its saved report', async () => {
    const store = new SqliteCheckpointStore(db, { clock });
    const first = await runtimeWith(
      [{ toolCalls: [{ name: 'read_file', args: { path: 'README.md' } }] }, { toolCalls: [{ name: 'read_file', args: { path: 'a.md' } }] }],
      store,
      'a',
    ).run('Summarize the README file');
    expect(first.end).toEqual({ state: 'limit', limit: 'iterations' });
    expect(saveRunReport(reports, first)).toEqual({ path: join(reports, `${first.runId}.json`), latest: true });

    // The CLI gives the prompt that continues it, from the report kept under its run id.
    const prompt = await headway(['runs', 'continue', first.runId, '--reports', reports]);
    expect(prompt).toMatchObject({ code: 0, stderr: '' });
    expect(prompt.stdout).toContain('## Task\n\nSummarize the README file\n');

    // The program that owns the tools continues it as a run of its own.
    const second = await runtimeWith([{ content: 'headway makes agent loops legible.' }], store, 'b').continueRun(
      readRunReport(join(reports, `${first.runId}.json`)),
    );
    expect(second).toMatchObject({ status: 'completed', parentRunId: first.runId });

    const cancelled = new AbortController();
    cancelled.abort(new Error('cancelled by the user (Ctrl-C)'));
    const third = await runtimeWith([{ content: 'never' }], store, 'c').run('List the packages', { signal: cancelled.signal });
    expect(third.end).toEqual({ state: 'cancelled' });
    store.close();

    const shown = await headway(['runs', 'show', second.runId, '--store', `sqlite:${db}`]);
    expect(shown.code).toBe(0);
    expect(shown.stdout.split('\n').slice(0, 4)).toEqual([
      `run ${second.runId}  (checkpoint b-3, session b-2, task ${second.runId})`,
      'task       Summarize the README file',
      'status     completed (completed)',
      `chain      ${first.runId} limit:iterations → ${second.runId} completed`,
    ]);
    const firstShown = await headway(['runs', 'show', first.runId, '--store', `sqlite:${db}`]);
    expect(firstShown.stdout.split('\n').slice(1, 4)).toEqual([
      'task       Summarize the README file',
      'status     limit:iterations (stopped at its iteration limit)',
      `chain      ${first.runId} limit:iterations → ${second.runId} completed`,
    ]);
    // The checkpoint id is still accepted.
    expect((await headway(['runs', 'show', 'a-3', '--store', `sqlite:${db}`])).stdout.split('\n')[0]).toBe(
      `run ${first.runId}  (checkpoint a-3, session a-2, task ${first.runId})`,
    );

    const list = await headway(['runs', 'list', '--all', '--store', `sqlite:${db}`]);
    expect(list.code).toBe(0);
    expect(
      list.stdout
        .trimEnd()
        .split('\n')
        .map((line) => line.split(/ {2,}/).filter((cell, i) => i !== 4)),
    ).toEqual([
      ['RUN', 'CHECKPOINT', 'SESSION', 'STATUS', 'ITERATION', 'SPENT', 'STRATEGY', 'CONTINUES'],
      // The scripted provider has no price: its calls are unpriced, never $0 spent.
      [first.runId, 'a-3', 'a-2', 'limit:iterations', '2', '$0.0000 (excludes 2 unpriced calls)', '-', '-'],
      [second.runId, 'b-3', 'b-2', 'completed', '1', '$0.0000 (excludes 1 unpriced call)', '-', first.runId],
      [third.runId, 'c-3', 'c-2', 'cancelled', '0', '$0.0000', '-', '-'],
    ]);
    const json = JSON.parse((await headway(['runs', 'show', first.runId, '--json', '--store', `sqlite:${db}`])).stdout) as Record<
      string,
      unknown
    >;
    expect(json).toMatchObject({
      runId: first.runId,
      status: 'limit:iterations',
      statusText: 'stopped at its iteration limit',
      checkpointStatus: 'completed',
    });
    // headway cost says the same words, run by run.
    const cost = await headway(['cost', '--session', 'a-2', '--store', `sqlite:${db}`]);
    expect(cost.stdout.split('\n')[2]?.split(/ {2,}/).slice(0, 3)).toEqual([first.runId, 'a-3', 'limit:iterations']);
    expect(json.chain).toEqual([
      { runId: first.runId, status: 'limit:iterations' },
      { runId: second.runId, status: 'completed' },
    ]);
  });

  it('says which run has no saved report, and refuses what is not a run id', async () => {
    expect(await headway(['runs', 'continue', 'nope', '--reports', reports])).toMatchObject({ code: 1 });
    expect((await headway(['runs', 'continue', 'nope', '--reports', reports])).stderr).toMatch(
      /^headway runs: no report of run "nope": .*ENOENT/,
    );
    expect(await headway(['runs', 'continue', '../x', '--reports', reports])).toMatchObject({ code: 2 });
  });
});
