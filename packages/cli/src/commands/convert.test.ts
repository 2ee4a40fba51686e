// `headway convert` keeps the run's own timing and writes the progress `watch` shows, on the
// recorded fixtures; `replay` of what it wrote plays at the speed the run happened.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock, parseProgressEvent, type ProgressEvent } from '@headway/protocol';
import { afterAll, describe, expect, it } from 'vitest';
import type { CliIo } from '../io/cli-io.js';
import { main } from '../main.js';
import { fixture } from '../run-cli.test-util.js';

const dir = mkdtempSync(join(tmpdir(), 'headway-convert-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Runs `headway ARGV` in-process on a clock that starts at `start` and jumps from timer to timer. */
async function run(
  argv: string[],
  start = 1_700_000_000_000,
): Promise<{ code: number; stdout: string; stderr: string; clock: ManualClock }> {
  let stdout = '';
  let stderr = '';
  const clock = new ManualClock({ start, autoAdvance: true });
  const io: CliIo = {
    stdout: { write: (chunk: string) => ((stdout += chunk), true) } as unknown as NodeJS.WritableStream,
    stderr: { write: (chunk: string) => ((stderr += chunk), true) },
    env: { NO_COLOR: '1' },
    clock,
  };
  const code = await main(argv, io);
  return { code, stdout, stderr, clock };
}

async function convert(name: string, start?: number): Promise<ProgressEvent[]> {
  const { code, stdout } = await run(['convert', fixture(name)], start);
  expect(code).toBe(0);
  return stdout
    .trimEnd()
    .split('\n')
    .map((line) => parseProgressEvent(JSON.parse(line)));
}

function expectMonotone(events: readonly ProgressEvent[]): void {
  events.forEach((e, i) => {
    expect(e.seq).toBe(i + 1);
    if (i > 0) expect(e.ts).toBeGreaterThanOrEqual(events[i - 1]?.ts ?? 0);
  });
}

describe('headway convert keeps the run’s own timing', () => {
  it('spreads a Claude Code stream over its result’s duration_ms, whenever it is converted', async () => {
    const events = await convert('claude-code-todo.jsonl');
    expectMonotone(events);
    const first = events[0];
    const last = events.at(-1);
    expect(first?.type).toBe('run.started');
    expect(last).toMatchObject({ type: 'run.finished', durationMs: 48_211 });
    expect((last?.ts ?? 0) - (first?.ts ?? 0)).toBe(48_211);
    // Converted a day later: the same run, shifted by the start only.
    const later = await convert('claude-code-todo.jsonl', 1_700_086_400_000);
    expect(later.map((e) => e.ts - (later[0]?.ts ?? 0))).toEqual(events.map((e) => e.ts - (first?.ts ?? 0)));
    // Turns and tool calls take their share of the run.
    const turns = events.filter((e) => e.type === 'step.finished');
    expect(turns.reduce((sum, e) => sum + e.durationMs, 0)).toBeGreaterThan(40_000);
  });

  it('keeps gemini-cli’s timestamps', async () => {
    const events = await convert('gemini-todo.jsonl');
    expectMonotone(events);
    const source = readFileSync(fixture('gemini-todo.jsonl'), 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => Date.parse((JSON.parse(l) as { timestamp: string }).timestamp));
    expect(events[0]?.ts).toBe(source[0]);
    expect(events.at(-1)?.ts).toBe(source.at(-1));
    for (const e of events.filter((x) => x.type !== 'progress')) expect(source).toContain(e.ts);
  });

  it('places Codex items a second apart in their order', async () => {
    const events = await convert('codex-todo.jsonl');
    expectMonotone(events);
    const lines = readFileSync(fixture('codex-todo.jsonl'), 'utf8').trimEnd().split('\n').length;
    expect((events.at(-1)?.ts ?? 0) - (events[0]?.ts ?? 0)).toBe((lines - 1) * 1000);
    // The run starts when its UUIDv7 thread id (0199a213-81c0-…) was made.
    expect(events[0]?.ts).toBe(0x0199a21381c0);
    expect(events.at(-1)).toMatchObject({ type: 'run.finished', durationMs: (lines - 1) * 1000 });
  });
});

describe('headway convert writes what watch shows', () => {
  it.each(['claude-code-todo.jsonl', 'claude-code-max-turns.jsonl', 'gemini-todo.jsonl', 'codex-todo.jsonl', 'codex-failed.jsonl'])(
    '%s: its progress events are the ones the live view makes from the same events at the same times',
    async (name) => {
      const events = await convert(name);
      const progress = events.filter((e) => e.type === 'progress');
      expect(progress.length).toBeGreaterThan(0);
      const finished = events.at(-1);
      if (finished?.type === 'run.finished' && finished.outcome === 'completed')
        expect(events.at(-2)).toMatchObject({ type: 'progress', percent: 100 });
      const withProgress = join(dir, `with-${name}`);
      const without = join(dir, `without-${name}`);
      writeFileSync(withProgress, events.map((e) => `${JSON.stringify(e)}\n`).join(''));
      writeFileSync(
        without,
        events
          .filter((e) => e.type !== 'progress')
          .map((e) => `${JSON.stringify(e)}\n`)
          .join(''),
      );
      // The replay of the events without progress runs the live view's estimator on a clock that
      // moves as the run did; the replay of convert's output shows convert's progress.
      const live = await run(['replay', without, '--plain', '--max-wait', '3600000'], events[0]?.ts);
      const converted = await run(['replay', withProgress, '--plain', '--max-wait', '3600000'], events[0]?.ts);
      expect(converted.stderr).toBe(live.stderr);
      expect(converted.stderr).toMatch(/\[progress\] ~?\d+%/);
    },
  );

  it('replay of a converted run takes as long as the run did', async () => {
    const events = await convert('claude-code-todo.jsonl');
    const file = join(dir, 'timed.jsonl');
    writeFileSync(file, events.map((e) => `${JSON.stringify(e)}\n`).join(''));
    const start = events[0]?.ts ?? 0;
    const replayed = await run(['replay', file, '--plain', '--max-wait', '3600000'], start);
    expect(replayed.code).toBe(0);
    expect(replayed.clock.now() - start).toBe(48_211);
  });
});
