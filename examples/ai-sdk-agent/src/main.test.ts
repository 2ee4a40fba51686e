// Runs the agent as a user would (a child process) and checks what it printed and logged.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseProgressEvent, type ProgressEvent } from '@headway/protocol';
import { describe, expect, it } from 'vitest';

const here = import.meta.dirname;
const tsx = resolve(here, '..', 'node_modules', '.bin', 'tsx');

function run(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(tsx, [resolve(here, 'main.ts'), ...args], { env: { ...process.env, CI: '1', OPENAI_API_KEY: '', ...env } });
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

describe('ai-sdk-agent', () => {
  it('stops at its iteration limit with the report the model wrote, a progress log and JSON events', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'headway-ai-sdk-'));
    for (const name of ['a.txt', 'b.txt', 'c.txt', 'd.txt']) writeFileSync(join(dir, name), `${name} body\n`);
    const eventsFile = join(mkdtempSync(join(tmpdir(), 'headway-ai-sdk-events-')), 'events.jsonl');
    const reports = mkdtempSync(join(tmpdir(), 'headway-ai-sdk-reports-'));
    const r = await run(['--dir', dir, '--events', eventsFile, '--max-iterations', '4', '--reports', reports]);
    expect(r.code).toBe(3); // stopped short with a report: the headway CLI's exit code
    expect(r.stdout).toContain('## PROGRESS REPORT');
    expect(r.stdout).toContain('- read a.txt\n- read b.txt');
    expect(r.stderr).toContain('[progress] Tool: readFile done — ok');
    expect(r.stderr).toContain('[progress] Limit: iteration limit reached (4 of 4)');

    const events: ProgressEvent[] = readFileSync(eventsFile, 'utf8')
      .trim()
      .split('\n')
      .map((line) => parseProgressEvent(JSON.parse(line)));
    expect(events.map((e) => e.seq)).toEqual(events.map((_e, i) => i + 1));
    expect(events.filter((e) => e.type === 'tool.completed').map((e) => e.toolName)).toEqual(['listFiles', 'readFile', 'readFile']);
    expect(events.at(-2)).toMatchObject({ type: 'report.generated', report: { generatedBy: 'model', remaining: ['c.txt', 'd.txt'] } });
    expect(events.at(-1)).toMatchObject({ type: 'run.finished', outcome: 'limit' });
    // The report is kept under the run id the events carry, and latest.json points at it.
    const runId = events[0]?.runId ?? '';
    const kept = join(reports, `${runId}.json`);
    expect(r.stderr).toContain(`report: ${kept}\n`);
    expect(JSON.parse(readFileSync(kept, 'utf8'))).toMatchObject({ runId, remaining: ['c.txt', 'd.txt'] });
    expect(readFileSync(join(reports, 'latest.json'), 'utf8')).toBe(readFileSync(kept, 'utf8'));
  });

  it("reads its paths from where the command was typed (npm's and pnpm's INIT_CWD), after pnpm's --", async () => {
    // `npm start --prefix examples/ai-sdk-agent -- --dir sub` typed in `typed`: npm runs the script
    // in the example's folder and says where it was typed in INIT_CWD; pnpm also passes its `--` on.
    const typed = mkdtempSync(join(tmpdir(), 'headway-ai-sdk-typed-'));
    mkdirSync(join(typed, 'sub'));
    writeFileSync(join(typed, 'sub', 'only.txt'), 'only body\n');
    const r = await run(['--', '--dir', 'sub', '--events', 'events.jsonl', '--max-iterations', '3'], { INIT_CWD: typed });
    expect(r.code).toBe(3); // list, read, then the report at its limit: stopped short with a report
    expect(r.stderr).toContain(`events: ${join(typed, 'events.jsonl')}`);
    const events = readFileSync(join(typed, 'events.jsonl'), 'utf8').trim().split('\n');
    expect(events.map((line) => parseProgressEvent(JSON.parse(line)).type)).toContain('run.finished');
    expect(r.stdout + r.stderr).toContain('only.txt');
    expect(r.stderr).toMatch(new RegExp(`report: ${join(typed, '.headway', 'reports').replaceAll('/', '\\/')}\\/[\\w-]+\\.json`));
  });
});
