// Runs the manager as a user would and checks the one overall bar it shows.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { computeStepRanges } from '@headway/estimator';
import { parseProgressEvent, type ProgressEvent } from '@headway/protocol';
import { describe, expect, it } from 'vitest';

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

describe('manager-worker', () => {
  it('shows one overall bar that moves monotonically from 0 to 100 through each step slice', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'headway-mw-'));
    const eventsPath = join(dir, 'events.jsonl');
    const r = await run(['--step-delay', '20', '--events', eventsPath]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('## headway 0.1');
    expect(r.stdout).toContain('The release note is within 120 words.');

    const events: ProgressEvent[] = readFileSync(eventsPath, 'utf8')
      .trim()
      .split('\n')
      .map((l) => parseProgressEvent(JSON.parse(l)));
    expect(events[0]?.type).toBe('run.started');
    expect(events.at(-1)).toMatchObject({ type: 'run.finished', outcome: 'completed' });

    const ranges = computeStepRanges([
      { name: 'Initial Analysis', weight: 20 },
      { name: 'Generate Content', weight: 60 },
      { name: 'Validate', weight: 20 },
    ]);
    let step: string | undefined;
    const percents: number[] = [];
    for (const e of events) {
      if (e.type === 'step.started') step = e.step;
      if (e.type !== 'progress') continue;
      percents.push(e.percent);
      const range = ranges.find((x) => x.name === step);
      if (range !== undefined && e.percent < 100) {
        // Inside a step the bar stays inside that step's slice of 10–90.
        expect(e.percent).toBeGreaterThanOrEqual(Math.round(range.start));
        expect(e.percent).toBeLessThanOrEqual(Math.round(range.end));
      }
    }
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    expect(percents.at(-1)).toBe(100);
    expect(percents.filter((p) => p === 100)).toHaveLength(1);
    // Both kinds of worker moved the bar: ones that report _progress, and ones on the fallback.
    const messages = events.flatMap((e) => (e.type === 'progress' && e.message !== undefined ? [e.message] : []));
    expect(messages.some((m) => m.startsWith('workers/generator: '))).toBe(true);
    const validateSlice = events.filter((e) => e.type === 'progress' && e.percent > Math.round(ranges[2]!.start) && e.percent < 90);
    expect(validateSlice.length).toBeGreaterThan(0);
    // Parallel members both ran inside step 1.
    const tools = events.flatMap((e) => (e.type === 'tool.completed' ? [e.toolName] : []));
    expect(tools).toContain('workers/analyzer › list_changes');
    expect(tools).toContain('workers/planner › list_changes');
  });

  it('names the line of a broken WORKFLOW.md', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'headway-mw-'));
    const workflow = join(dir, 'WORKFLOW.md');
    writeFileSync(workflow, '## 1. Only step\n```yaml\ncall: workers/generator\nweight: -5\n```\n');
    const r = await run(['--workflow', workflow]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^manager-worker: .*WORKFLOW\.md: WORKFLOW\.md line 3: .*positive number/);
  });
});
