// Runs the example the way a user does — a child process — and checks what they would see.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const here = import.meta.dirname;
const tsx = resolve(here, '..', 'node_modules', '.bin', 'tsx');
const main = resolve(here, 'main.ts');

function run(args: string[], docStepMs = 30): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(tsx, [main, '--doc-step-ms', String(docStepMs), ...args], { env: { ...process.env, CI: '1', NO_COLOR: '1' } });
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

function percents(lines: string[], pattern: RegExp): number[] {
  return lines.flatMap((l) => {
    const m = pattern.exec(l);
    return m?.[1] === undefined ? [] : [Number(m[1])];
  });
}

describe('mcp-tools example', () => {
  it('shows the MCP tool’s own progress nested in the CLI bar, never going back', async () => {
    const r = await run([]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('The handbook is indexed: 5 documents are ready for search.\n');
    const lines = r.stderr.split('\n');
    expect(lines[0]).toBe('  [progress] Starting: Index the handbook');
    const toolStart = lines.indexOf('  [progress] Tool: index_docs...');
    const toolDone = lines.indexOf('  [progress] Tool: index_docs done — ok');
    const nested = lines.slice(toolStart, toolDone).filter((l) => l.includes('indexed handbook/doc-'));
    // Every document the tool reported, in order (the bar may also creep on its own, repeating the current one).
    expect([...new Set(nested.map((l) => /indexed (handbook\/doc-\d+\.md)/u.exec(l)?.[1]))]).toEqual(
      [1, 2, 3, 4, 5].map((i) => `handbook/doc-${String(i)}.md`),
    );
    expect(nested[0]).toMatch(/^ {2}\[progress\] \d+% indexed handbook\/doc-1\.md$/u);
    const all = percents(lines, /\[progress\] (\d+)%/u);
    for (let i = 1; i < all.length; i++) expect(all[i]).toBeGreaterThanOrEqual(all[i - 1] ?? 0);
    expect(all.at(-1)).toBe(100);
    expect(lines.filter((l) => l.startsWith('  [progress] Complete:'))).toEqual([
      expect.stringMatching(/^ {2}\[progress\] Complete: finished after 2 iteration\(s\)( \(.*\))?$/u),
    ]);
  });

  it('the same agent as an MCP tool sends the official client rising progress out of 100, nested tool included', async () => {
    // The agent tool sends at most one notification per 250 ms, carrying the latest message. With
    // documents 30 ms apart, the window can close on any message (on a busy machine often on the
    // step after the tool), so documents here take longer than that window, as the default 300 ms
    // does: the first document's notification then opens a window of its own.
    const r = await run(['--via-mcp'], 600);
    expect(r.code).toBe(0);
    const [text, structured] = r.stdout.trim().split('\n');
    expect(text).toBe('The handbook is indexed: 5 documents are ready for search.');
    expect(JSON.parse(structured ?? '')).toMatchObject({ status: 'completed', iterations: 2 });
    const lines = r.stderr.split('\n').filter((l) => l.startsWith('  [mcp progress]'));
    expect(lines.some((l) => /^ {2}\[mcp progress\] \d+\/100 indexed handbook\/doc-\d\.md$/u.test(l))).toBe(true);
    const all = percents(lines, /\[mcp progress\] (\d+)\/100/u);
    for (let i = 1; i < all.length; i++) expect(all[i]).toBeGreaterThan(all[i - 1] ?? 0);
  });
});
