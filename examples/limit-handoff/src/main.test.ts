// Runs both agents as a user would and checks the handoff from the events they wrote.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseProgressEvent, type ProgressEvent } from '@headway/protocol';
import { describe, expect, it } from 'vitest';
import { LICENSES, TASK } from './research-model.js';

const here = import.meta.dirname;
const tsx = resolve(here, '..', 'node_modules', '.bin', 'tsx');

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(tsx, [resolve(here, 'main.ts'), ...args], { env: { ...process.env, CI: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', fail);
    child.on('close', (code) => {
      done({ code, stdout, stderr });
    });
  });
}

function events(file: string): ProgressEvent[] {
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => parseProgressEvent(JSON.parse(l)));
}

function lookups(list: ProgressEvent[]): string[] {
  return list.flatMap((e) => (e.type === 'tool.executing' ? [(e.args as { id: string }).id] : []));
}

describe('limit-handoff', () => {
  it('winds down at the time budget with a report, and the follow-up agent finishes without repeating work', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'headway-lh-'));
    const r = await run(['--events-dir', dir, '--budget-ms', '1500', '--tool-ms', '300', '--think-ms', '100']);
    expect(r.code).toBe(0);

    const first = events(join(dir, 'researcher.jsonl'));
    const types = first.map((e) => e.type);
    expect(types).toContain('wind-down.started');
    expect(types.indexOf('wind-down.started')).toBeLessThan(types.indexOf('report.generated'));
    expect(first.filter((e) => e.type === 'limit.reached')).toMatchObject([{ limit: 'time' }]);
    expect(first.at(-1)).toMatchObject({ type: 'run.finished', outcome: 'limit' });
    const generated = first.find((e) => e.type === 'report.generated');
    if (generated?.type !== 'report.generated') throw new Error('no report');
    const { report } = generated;
    expect(report).toMatchObject({ reason: 'time-budget', generatedBy: 'model' });
    const firstLookups = lookups(first);
    // Everything the first run found is handed over inline.
    for (const id of firstLookups) expect(report.keyFindings.some((f) => f.startsWith(`${id}: `))).toBe(true);
    expect(report.remaining).toEqual(LICENSES.filter((id) => !firstLookups.includes(id)).map((id) => `Look up ${id}`));
    expect(r.stdout).toContain('First run: limit (time-budget, report by the model)');
    expect(r.stderr).toContain('## PROGRESS REPORT');

    const second = events(join(dir, 'continuer.jsonl'));
    expect(second.at(-1)).toMatchObject({ type: 'run.finished', outcome: 'completed' });
    // The continuation is a run of its own: the original task as its title, the first run as its parent.
    expect(second[0]).toMatchObject({ type: 'run.started', task: TASK, parentRunId: first[0]?.runId });
    const secondLookups = lookups(second);
    // Each license is looked up exactly once across both runs.
    expect([...firstLookups, ...secondLookups].sort()).toEqual([...LICENSES].sort());
    for (const id of LICENSES) expect(r.stdout).toMatch(new RegExp(`\\| ${id.replace('.', '\\.')} \\| (?!unknown)`));
    expect(r.stdout).toContain(`Second run: completed (continues ${first[0]?.runId ?? ''})`);
  });
});
