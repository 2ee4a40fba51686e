// `headway watch` on an agent that keeps a todo list: the bar follows the plan. The CLI runs
// in-process with a clock that moves a second per reading, so the percent is exact.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock, type Clock } from '@headway/protocol';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../main.js';

const dir = mkdtempSync(join(tmpdir(), 'headway-watch-plan-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const SESSION = 's-plan';
const PERCENT = /^ {2}\[progress\] ~?\d+%/;
type Status = 'pending' | 'in_progress' | 'completed';
const TASKS = ['Find the failing test', 'Fix the bug', 'Run the suite'];

function todoWrite(id: string, statuses: readonly Status[]): string[] {
  const todos = TASKS.map((content, i) => ({ content, status: statuses[i] ?? 'pending', activeForm: content }));
  return [
    JSON.stringify({
      type: 'assistant',
      message: { id: `msg_${id}`, role: 'assistant', content: [{ type: 'tool_use', id: `t_${id}`, name: 'TodoWrite', input: { todos } }] },
      session_id: SESSION,
    }),
    JSON.stringify({
      type: 'user',
      message: {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: `t_${id}`, content: 'Todos have been modified successfully.' }],
      },
      session_id: SESSION,
    }),
  ];
}

function bash(id: string): string[] {
  return [
    JSON.stringify({
      type: 'assistant',
      message: {
        id: `msg_${id}`,
        role: 'assistant',
        content: [{ type: 'tool_use', id: `t_${id}`, name: 'Bash', input: { command: 'npm test' } }],
      },
      session_id: SESSION,
    }),
    JSON.stringify({
      type: 'user',
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `t_${id}`, content: 'ok' }] },
      session_id: SESSION,
    }),
  ];
}

/** A Claude Code stream whose todo list goes 0/3 → 1/3 → 2/3 completed, a command run between updates. */
function claudeStream(plans: readonly (readonly Status[])[]): string {
  const lines = [
    JSON.stringify({ type: 'system', subtype: 'init', session_id: SESSION, model: 'claude-sonnet-4-5', tools: ['TodoWrite', 'Bash'] }),
  ];
  plans.forEach((statuses, i) => {
    lines.push(...todoWrite(`p${i}`, statuses), ...bash(`b${i}`));
  });
  lines.push(
    JSON.stringify({
      type: 'assistant',
      message: { id: 'msg_end', role: 'assistant', content: [{ type: 'text', text: 'Done.' }] },
      session_id: SESSION,
    }),
    JSON.stringify({
      type: 'result',
      subtype: 'success',
      is_error: false,
      num_turns: 7,
      result: 'Done.',
      session_id: SESSION,
      total_cost_usd: 0.01,
    }),
  );
  return `${lines.join('\n')}\n`;
}

async function watchPlain(name: string, text: string): Promise<{ code: number; lines: string[] }> {
  const file = join(dir, name);
  writeFileSync(file, text);
  let stderr = '';
  let stdout = '';
  let t = Date.UTC(2026, 0, 1);
  // The feed's once-a-second tick reads the clock too: its timers are a manual clock's that is never
  // advanced, so they never fire and the readings are the same every run.
  const timers = new ManualClock();
  const clock: Clock = {
    now: () => (t += 1000),
    setTimeout: (fn, ms) => timers.setTimeout(fn, ms),
    clearTimeout: (handle) => {
      timers.clearTimeout(handle);
    },
  };
  const io = {
    stdout: { write: (chunk: string) => ((stdout += chunk), true) } as unknown as NodeJS.WritableStream,
    stderr: { write: (chunk: string) => ((stderr += chunk), true) },
    env: { NO_COLOR: '1' },
    clock,
  };
  const code = await main(['watch', '--plain', file], io);
  expect(stdout).toBe('');
  return { code, lines: stderr.split('\n') };
}

describe('headway watch with a plan', () => {
  it('moves the bar with a Claude Code todo list that goes 0/3 → 1/3 → 2/3 done', async () => {
    const { code, lines } = await watchPlain(
      'plan.jsonl',
      claudeStream([
        ['in_progress', 'pending', 'pending'],
        ['completed', 'in_progress', 'pending'],
        ['completed', 'completed', 'in_progress'],
      ]),
    );
    expect(code).toBe(0);
    // Each plan line is followed by the bar the plan sets: 0.92 of (done + half the item in progress) / 3.
    // Before the plan is kept current (no cap, no history), the percent is a guess: ~, no ETA.
    expect(lines.filter((l) => l.includes('Plan:') || PERCENT.test(l))).toEqual([
      '  [progress] ~20%',
      '  [progress] Plan: 0/3 done — now: Find the failing test',
      '  [progress] ~25%',
      '  [progress] ~28%',
      '  [progress] ~31%',
      '  [progress] ~33%',
      '  [progress] Plan: 1/3 done — now: Fix the bug',
      '  [progress] 46% (ETA <1–2 min)',
      '  [progress] 47% (ETA <1–2 min)',
      '  [progress] 52% (ETA <1–2 min)',
      '  [progress] 55% (ETA <1–2 min)',
      '  [progress] Plan: 2/3 done — now: Run the suite',
      '  [progress] 77% (ETA 2–29s)',
      '  [progress] 78% (ETA 2–35s)',
      '  [progress] 83% (ETA 2–37s)',
      '  [progress] 86% (ETA 2–39s)',
      '  [progress] 100%',
    ]);
    expect(lines.at(-2)).toBe('  [progress] Complete: Done. (7 turns, $0.0100) (0ms)');
  });

  it('keeps the bar a guess while the plan is only declared, never advanced', async () => {
    const { code, lines } = await watchPlain(
      'stale.jsonl',
      claudeStream([
        ['in_progress', 'pending', 'pending'],
        ['in_progress', 'pending', 'pending'],
        ['in_progress', 'pending', 'pending'],
      ]),
    );
    expect(code).toBe(0);
    // A plan that never completes an item says what the agent meant to do, not how far it got:
    // without a cap or history the percent stays a guess (the cold-start curve: it rises over the first
    // iterations, then flattens well below its ceiling of 75) until the run ends.
    expect(lines.filter((l) => PERCENT.test(l))).toEqual(
      ['~20%', '~25%', '~28%', '~31%', '~33%', '~35%', '~36%', '~37%', '~38%', '~39%', '~40%', '~41%', '~43%', '100%'].map(
        (p) => `  [progress] ${p}`,
      ),
    );
  });
});
