// `headway watch` on a Claude Code stream that lists the same folder again and again: it says
// "stuck?" and, with --on-stall exit, stops with exit code 3.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock, type Clock } from '@headway/protocol';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../main.js';

const dir = mkdtempSync(join(tmpdir(), 'headway-watch-stall-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const SESSION = 's-stall';

function call(id: string, command: string, result: string): string[] {
  return [
    JSON.stringify({
      type: 'assistant',
      message: { id: `msg_${id}`, role: 'assistant', content: [{ type: 'tool_use', id: `t_${id}`, name: 'Bash', input: { command } }] },
      session_id: SESSION,
    }),
    JSON.stringify({
      type: 'user',
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `t_${id}`, content: result }] },
      session_id: SESSION,
    }),
  ];
}

function stream(calls: readonly (readonly [string, string])[]): string {
  const lines = [JSON.stringify({ type: 'system', subtype: 'init', session_id: SESSION, model: 'claude-sonnet-4-5', tools: ['Bash'] })];
  calls.forEach(([command, result], i) => lines.push(...call(`c${i}`, command, result)));
  lines.push(
    JSON.stringify({ type: 'result', subtype: 'success', is_error: false, num_turns: calls.length, result: 'Done.', session_id: SESSION }),
  );
  return `${lines.join('\n')}\n`;
}

async function watch(name: string, text: string, extra: string[] = []): Promise<{ code: number; lines: string[] }> {
  const file = join(dir, name);
  writeFileSync(file, text);
  let stderr = '';
  const timers = new ManualClock();
  let t = 0;
  const clock: Clock = {
    now: () => (t += 1000),
    setTimeout: (fn, ms) => timers.setTimeout(fn, ms),
    clearTimeout: (handle) => {
      timers.clearTimeout(handle);
    },
  };
  const io = {
    stdout: { write: () => true } as unknown as NodeJS.WritableStream,
    stderr: { write: (chunk: string) => ((stderr += chunk), true) },
    env: { NO_COLOR: '1' },
    clock,
  };
  const code = await main(['watch', '--plain', ...extra, file], io);
  return { code, lines: stderr.split('\n') };
}

const looping = Array.from({ length: 8 }, () => ['ls src/work', 'a.ts\nb.ts'] as const);

describe('headway watch and stalls', () => {
  it('says the run looks stuck and watches on by default', async () => {
    const { code, lines } = await watch('loop.jsonl', stream(looping));
    expect(code).toBe(0);
    expect(lines.filter((l) => l.includes('stuck'))).toEqual(['  [progress] Warning: stuck? ls src/work 5× with the same result']);
  });

  it('stops with exit code 3 on the first stall with --on-stall exit', async () => {
    const { code, lines } = await watch('loop-exit.jsonl', stream(looping), ['--on-stall', 'exit']);
    expect(code).toBe(3);
    expect(lines.filter((l) => l.includes('Tool: Bash done'))).toHaveLength(5);
    expect(lines.filter((l) => l.includes('stuck'))).toEqual([
      '  [progress] Warning: stuck? ls src/work 5× with the same result',
      'headway: stopped watching: the run looks stuck (ls src/work 5× with the same result)',
    ]);
  });

  it('never stops a varied run', async () => {
    const varied = Array.from({ length: 12 }, (_, i) => [`cat src/f${i}.ts`, `contents ${i}`] as const);
    const { code, lines } = await watch('varied.jsonl', stream(varied), ['--on-stall', 'exit']);
    expect(code).toBe(0);
    expect(lines.filter((l) => l.includes('stuck'))).toEqual([]);
  });

  it('refuses an unknown --on-stall value', async () => {
    const { code, lines } = await watch('usage.jsonl', stream([]), ['--on-stall', 'kill']);
    expect(code).toBe(2);
    expect(lines.join('\n')).toContain('--on-stall is warn or exit, not "kill"');
  });
});
