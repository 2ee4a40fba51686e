// Runs the example as a user would (a child process) and checks what it printed and logged.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseProgressEventJson, type ProgressEvent } from '@headway/protocol';
import { describe, expect, it } from 'vitest';

const here = import.meta.dirname;
const tsx = resolve(here, '..', 'node_modules', '.bin', 'tsx');

function run(args: string[]): Promise<{ code: number | null; stdout: string }> {
  return new Promise((done, fail) => {
    const child = spawn(tsx, [resolve(here, 'main.ts'), ...args], { env: { ...process.env, CI: '1', OPENAI_API_KEY: '' } });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.resume();
    child.on('error', fail);
    child.on('close', (code) => {
      done({ code, stdout });
    });
  });
}

describe('openai-agents-handoff', () => {
  it('hands off, stops at its iteration limit with the report the reader wrote, and logs every event', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'headway-oa-'));
    for (const name of ['a.txt', 'b.txt', 'c.txt', 'd.txt']) writeFileSync(join(dir, name), `${name} body\n`);
    const eventsFile = join(mkdtempSync(join(tmpdir(), 'headway-oa-events-')), 'events.jsonl');
    const { code, stdout } = await run(['--dir', dir, '--events', eventsFile, '--max-iterations', '5']);
    expect(code).toBe(3); // stopped short with a report: the headway CLI's exit code
    expect(stdout).toContain('## PROGRESS REPORT');
    expect(stdout).toContain('- listed the folder and read a.txt, b.txt');
    expect(stdout).toContain('- read c.txt next');
    const events: ProgressEvent[] = readFileSync(eventsFile, 'utf8')
      .trim()
      .split('\n')
      .map((line) => parseProgressEventJson(line));
    expect(events[0]).toMatchObject({ type: 'run.started', agentName: 'triage' });
    expect(events.filter((e) => e.type === 'tool.completed').map((e) => e.toolName)).toEqual(['listFiles', 'readFile', 'readFile']);
    expect(events.some((e) => e.type === 'progress' && e.message === 'handed off to reader')).toBe(true);
    const percents = events.filter((e) => e.type === 'progress').map((e) => e.percent);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    expect(events.at(-1)).toMatchObject({ type: 'run.finished', outcome: 'limit' });
  });
});
