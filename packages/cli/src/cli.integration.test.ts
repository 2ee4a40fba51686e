// headway as a user runs it: the built bin in a child process, its exit code, stdout and stderr
// (in-process, on a recording clock, where a command would otherwise sleep).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock, parseProgressEventJson, type ProgressReport } from '@headway/protocol';
import { createRecordingClock } from '@headway/protocol/testing';
import { JsonlAuditBus, SqliteAuditBus, type AuditEvent } from '@headway/reporter-audit';
import { SqliteCheckpointStore, SqliteSessionStore } from '@headway/store-sqlite';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from './main.js';
import { fixture, runCli, startCli } from './run-cli.test-util.js';
import { storeSampleRuns } from './stored-runs.test-util.js';

const dir = mkdtempSync(join(tmpdir(), 'headway-cli-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('every command', () => {
  it.each(['watch', 'convert', 'replay', 'report', 'runs', 'cost', 'audit'])(
    '%s --help shows usage, exit codes and examples',
    async (command) => {
      const { code, stdout } = await runCli([command, '--help']);
      expect(code).toBe(0);
      expect(stdout).toMatch(new RegExp(`^headway ${command}`));
      expect(stdout).toContain('Exit codes:');
      expect(stdout).toContain('Examples:');
    },
  );

  it('answers bad usage with exit 2 and the usage line', async () => {
    expect(await runCli([])).toMatchObject({ code: 2 });
    const unknown = await runCli(['frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('headway: unknown command "frobnicate"');
    const option = await runCli(['replay', 'x.jsonl', '--sped', '3']);
    expect(option.code).toBe(2);
    expect(option.stderr).toContain("headway replay: Unknown option '--sped'");
    expect(option.stderr).toContain('usage: headway replay FILE [--speed N] [--plain]');
    const from = await runCli(['watch', '--from', 'cursor']);
    expect(from.code).toBe(2);
    expect(from.stderr).toContain('--from: expected auto, headway, claude-code, codex, gemini; got "cursor"');
  });

  it('names a missing file and exits 1', async () => {
    for (const args of [
      ['watch', 'nope.jsonl'],
      ['replay', 'nope.jsonl'],
      ['report', 'render', 'nope.json'],
      ['audit', 'verify', 'nope.jsonl'],
    ]) {
      const { code, stderr } = await runCli(args);
      expect(code, args.join(' ')).toBe(1);
      expect(stderr).toBe(`headway ${args[0] ?? ''}: nope.json${args[0] === 'report' ? '' : 'l'}: no such file\n`);
    }
  });
});

describe('headway watch', () => {
  it('shows a Claude Code run as plain lines, its plan and its end, exit 0', async () => {
    const { code, stderr, stdout } = await runCli(['watch', fixture('claude-code-todo.jsonl')]);
    expect(code).toBe(0);
    expect(stdout).toBe('');
    const lines = stderr.split('\n');
    expect(lines[0]).toBe('  [progress] Starting: claude-code');
    expect(lines).toContain('  [progress] Plan: 1/3 done — now: Fix the bug in sum()');
    // The tool's duration is the time between reading its call and its result: 0 ms on a quiet machine, more on a busy one.
    expect(
      lines.filter((l) =>
        /^ {2}\[progress\] Tool: Bash done — error in \S+: Exit code 1 FAIL src\/sum\.test\.js expected 6, received 5$/.test(l),
      ),
    ).toHaveLength(1);
    expect(lines).toContain('  [progress] 100%');
    expect(lines.at(-2)).toBe(
      '  [progress] Complete: Fixed the off-by-one in sum(): the loop started at 1. All 3 tests pass. (17 turns, $0.0874) (48s, 122092 tokens)',
    );
  });

  it('exits 3 for a run stopped at its turn limit and 1 for a failed one', async () => {
    expect((await runCli(['watch', fixture('claude-code-max-turns.jsonl')])).code).toBe(3);
    const failed = await runCli(['watch', fixture('codex-failed.jsonl')]);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('stream disconnected before completion');
    expect((await runCli(['watch', fixture('gemini-todo.jsonl')])).code).toBe(0);
  });

  it('warns once about lines it does not understand, counts them, and goes on', async () => {
    const input = [
      'garbage',
      ...readFileSync(fixture('codex-todo.jsonl'), 'utf8')
        .split('\n')
        .flatMap((l) => [l, '{"type":"mystery"}']),
    ].join('\n');
    const { code, stderr } = await runCli(['watch', '-'], { stdin: input });
    expect(code).toBe(0);
    expect(stderr.match(/not understood|skipped/g)).toHaveLength(2);
    expect(stderr).toContain('headway: stdin: line 1: not JSON; skipped (later lines like it are only counted)');
    expect(stderr).toContain('headway: 17 of 33 lines not understood');
  });

  it('says when the input ends before the run finished', async () => {
    const head = readFileSync(fixture('claude-code-todo.jsonl'), 'utf8').split('\n').slice(0, 5).join('\n');
    const { code, stderr } = await runCli(['watch'], { stdin: head });
    expect(code).toBe(1);
    expect(stderr).toContain('headway: the input ended before the run finished (5 lines read)');
  });

  it('keeps up with claude-style input piped in at real pace, showing each step as it comes', async () => {
    const child = startCli(['watch', '--from', 'claude-code']);
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const exit = new Promise<number | null>((resolve) => child.on('close', resolve));
    const lines = readFileSync(fixture('claude-code-todo.jsonl'), 'utf8').trimEnd().split('\n');
    // One line at a time, the next only once the view has shown the previous one's tool, as a live agent would.
    const shown = new Map([
      [0, 'Starting: claude-code'],
      [2, 'Plan: 0/3 done'],
      [3, 'Tool: TodoWrite done'],
      [4, 'Tool: Bash...'],
      [5, 'Tool: Bash done — error'],
      [11, 'Tool: Edit done'],
    ]);
    for (const [i, line] of lines.entries()) {
      child.stdin.write(`${line}\n`);
      const expected = shown.get(i);
      if (expected !== undefined) {
        await vi.waitFor(
          () => {
            expect(stderr).toContain(expected);
          },
          { timeout: 20_000, interval: 20 },
        );
      }
    }
    child.stdin.end();
    expect(await exit).toBe(0);
    expect(stderr).toContain('Complete: Fixed the off-by-one');
  });

  it('stops at Ctrl-C with exit 130, leaving what it showed', async () => {
    const child = startCli(['watch']);
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const exit = new Promise<number | null>((resolve) => child.on('close', resolve));
    child.stdin.write(readFileSync(fixture('claude-code-todo.jsonl'), 'utf8').split('\n').slice(0, 4).join('\n') + '\n');
    await vi.waitFor(
      () => {
        expect(stderr).toContain('Plan: 0/3 done');
      },
      { timeout: 20_000, interval: 20 },
    );
    child.kill('SIGINT');
    expect(await exit).toBe(130);
    expect(stderr).not.toContain('Premature close');
  });

  it('follows a file as it grows until the run ends', async () => {
    const file = join(dir, 'growing.jsonl');
    const lines = readFileSync(fixture('gemini-todo.jsonl'), 'utf8').trimEnd().split('\n');
    writeFileSync(file, `${lines.slice(0, 4).join('\n')}\n`);
    const child = startCli(['watch', '--follow', file]);
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const exit = new Promise<number | null>((resolve) => child.on('close', resolve));
    await vi.waitFor(
      () => {
        expect(stderr).toContain('Plan: 0/3 done');
      },
      { timeout: 20_000, interval: 20 },
    );
    writeFileSync(file, `${lines.join('\n')}\n`, { flag: 'w' });
    expect(await exit).toBe(0);
    expect(stderr).toContain('Complete');
  });
});

describe('headway convert and replay', () => {
  it('writes valid headway events that replay to the same end', async () => {
    for (const [name, expected] of [
      ['claude-code-todo.jsonl', 0],
      ['claude-code-max-turns.jsonl', 3],
      ['codex-failed.jsonl', 1],
    ] as const) {
      const out = join(dir, `${name}.events.jsonl`);
      const converted = await runCli(['convert', fixture(name), '--out', out]);
      expect(converted.code).toBe(0);
      const events = readFileSync(out, 'utf8')
        .trimEnd()
        .split('\n')
        .map((l) => parseProgressEventJson(l));
      expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
      const replayed = await runCli(['replay', out, '--speed', '0']);
      expect(replayed.code, name).toBe(expected);
    }
  });

  it('writes to stdout, and exits 1 when nothing was understood', async () => {
    const { code, stdout } = await runCli(['convert', '--from', 'gemini'], { stdin: readFileSync(fixture('gemini-todo.jsonl'), 'utf8') });
    expect(code).toBe(0);
    expect(stdout.split('\n')[0]).toBe(
      '{"type":"run.started","agentName":"gemini-cli","sessionId":"c0ffee00-1234-4abc-9def-000000000001","runId":"c0ffee00-1234-4abc-9def-000000000001","seq":1,"ts":1760097600000}',
    );
    const nothing = await runCli(['convert'], { stdin: 'hello\nworld\n' });
    expect(nothing.code).toBe(1);
    expect(nothing.stderr).toContain('no line was in a known format');
  });

  it('replays at N× speed, keeping the gaps between events', async () => {
    const file = join(dir, 'slow.jsonl');
    const events = [
      { runId: 'r', seq: 1, ts: 0, type: 'run.started', agentName: 'demo' },
      { runId: 'r', seq: 2, ts: 1000, type: 'progress', percent: 50 },
      { runId: 'r', seq: 3, ts: 2000, type: 'run.finished', outcome: 'completed', durationMs: 2000 },
    ];
    writeFileSync(file, events.map((e) => `${JSON.stringify(e)}\n`).join(''));
    // In-process on a clock that records the waits instead of sleeping through them.
    const clock = createRecordingClock();
    let stderr = '';
    const io = {
      stdout: { write: () => true } as unknown as NodeJS.WritableStream,
      stderr: { write: (chunk: string) => ((stderr += chunk), true) },
      env: { NO_COLOR: '1' },
      clock,
    };
    expect(await main(['replay', file, '--speed', '20', '--plain'], io)).toBe(0);
    expect(clock.waits).toEqual([50, 50]);
    expect(stderr).toBe('  [progress] Starting: demo\n  [progress] 50%\n  [progress] Complete: finished (2.0s)\n');
  });

  it('stops at a corrupt line of a log, naming it', async () => {
    const file = join(dir, 'corrupt.jsonl');
    writeFileSync(
      file,
      '{"runId":"r","seq":1,"ts":0,"type":"run.started","agentName":"a"}\n{"runId":"r","seq":2,"ts":1,"type":"progress"}\n{}\n',
    );
    const { code, stderr } = await runCli(['replay', file]);
    expect(code).toBe(1);
    expect(stderr).toBe(
      `headway replay: ${file}:2: Invalid progress event (type "progress"): percent: invalid input: expected number, received undefined\n`,
    );
  });
});

describe('headway report', () => {
  const report: ProgressReport = {
    task: 'Fix the failing test',
    reason: 'max-iterations',
    completedWork: ['Found the failing test'],
    keyFindings: ['sum() starts its loop at 1'],
    attemptedInconclusive: [],
    remaining: ['Fix sum()'],
    suggestedNextSteps: ['Change the loop start to 0 and run the tests'],
    stats: { iterations: 3, toolCalls: 4, elapsedMs: 9000 },
    generatedBy: 'fallback',
  };

  it('renders JSON to Markdown, parses it back, and writes the continuation prompt', async () => {
    const json = join(dir, 'report.json');
    writeFileSync(json, JSON.stringify(report));
    const md = await runCli(['report', 'render', json]);
    expect(md.code).toBe(0);
    expect(md.stdout).toContain('Fix the failing test');
    const mdFile = join(dir, 'report.md');
    writeFileSync(mdFile, md.stdout);
    const parsed = await runCli(['report', 'parse', mdFile]);
    expect(parsed.code).toBe(0);
    expect(JSON.parse(parsed.stdout)).toMatchObject({
      task: 'Fix the failing test',
      remaining: ['Fix sum()'],
      keyFindings: ['sum() starts its loop at 1'],
    });
    const prompt = await runCli(['report', 'continue', json, '--json']);
    expect(prompt.code).toBe(0);
    expect((JSON.parse(prompt.stdout) as { prompt: string }).prompt).toContain('Change the loop start to 0');
  });

  it('names the line and column of a report that is not JSON, and what is wrong with one that is', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{\n  "task": "x",\n  "reason": oops\n}');
    const { code, stderr } = await runCli(['report', 'render', bad]);
    expect(code).toBe(1);
    expect(stderr).toMatch(new RegExp(`^headway report: ${bad}:3:13: not JSON`));
    writeFileSync(bad, '{"task": 1}');
    expect((await runCli(['report', 'render', bad])).stderr).toContain(`${bad}: not a progress report: task:`);
  });
});

describe('headway runs and cost', () => {
  const db = join(dir, 'agent.db');
  const now = Date.now();
  beforeAll(async () => {
    const store = new SqliteCheckpointStore(db, { clock: new ManualClock({ start: now - 120_000 }) });
    await storeSampleRuns(store, new SqliteSessionStore(store.database));
    store.close();
  });

  it('lists unfinished runs with age, iteration, spend and strategy; --all and --json', async () => {
    const { code, stdout } = await runCli(['runs', 'list', '--store', `sqlite:${db}`]);
    expect(code).toBe(0);
    expect(stdout.split('\n')[0]).toMatch(/^RUN +CHECKPOINT +SESSION +STATUS +AGE +ITERATION +SPENT +STRATEGY +CONTINUES$/);
    expect(stdout.split('\n')[1]).toMatch(/^run-1 +cp-live +s-1 +interrupted +\d+m \d+s +2 +\$0\.0123 +resume +-$/); // 2 min old when written; older on a busy machine
    const all = JSON.parse((await runCli(['runs', 'list', '--all', '--json', '--store', `sqlite:${db}`])).stdout) as { id: string }[];
    expect(all.map((r) => r.id).sort()).toEqual(['cp-done', 'cp-live']);
    const show = await runCli(['runs', 'show', 'cp-live', '--store', `sqlite:${db}`]);
    expect(show.stdout).toContain('tokens     1200 in, 300 out');
    // By the run id that events and logs print, too.
    expect((await runCli(['runs', 'show', 'run-1', '--store', `sqlite:${db}`])).stdout).toContain('tokens     1200 in, 300 out');
    expect((await runCli(['runs', 'resume', 'cp-live', '--store', `sqlite:${db}`])).stdout).toContain('await runtime.resume("cp-live");');
    expect((await runCli(['runs', 'resume', 'cp-done', '--store', `sqlite:${db}`])).code).toBe(1);
    expect((await runCli(['runs', 'show', 'cp-nope', '--store', `sqlite:${db}`])).stderr).toContain('no run "cp-nope" in this store');
  });

  it('shows spend per session and per run, with a budget', async () => {
    const { code, stdout } = await runCli(['cost', '--store', `sqlite:${db}`]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^SESSION +RUNS +CALLS +SPENT\ns-1 +1 +6 +\$0\.5123\ntotal \$0\.5123 over 1 session\n$/);
    const one = JSON.parse((await runCli(['cost', '--session', 's-1', '--budget', '1', '--json', '--store', `sqlite:${db}`])).stdout) as {
      leftUsd: number;
      runs: unknown[];
    };
    expect(one.leftUsd).toBeCloseTo(0.4877);
    expect(one.runs).toHaveLength(2);
  });

  it('abandons a run, and rejects wrong store URLs clearly', async () => {
    expect((await runCli(['runs', 'abandon', 'cp-live', '--store', `sqlite:${db}`])).stdout).toBe('abandoned 1 run\n');
    expect((await runCli(['runs', 'list', '--store', `sqlite:${db}`])).stdout).toBe('no unfinished runs (--all lists finished ones too)\n');
    expect(await runCli(['runs', 'list', '--store', 'mysql://h/db'])).toMatchObject({
      code: 2,
      stderr: 'headway runs: mysql://h/db: not a store URL; expected sqlite:PATH or postgres://…\n',
    });
    expect(await runCli(['runs', 'list'])).toMatchObject({ code: 2 });
    const none = await runCli(['cost', '--store', `sqlite:${join(dir, 'none.db')}`]);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('none.db: no such file');
  });
});

describe('headway audit verify', () => {
  function ev(i: number, sessionId: string): AuditEvent {
    return {
      eventType: 'agent.progress.update',
      category: 'agent',
      result: 'allow',
      sessionId,
      taskId: 't',
      timestamp: 1000 + i,
      detail: { pct: i },
    };
  }

  it('passes a whole JSONL log and names the first tampered line of each kind', async () => {
    const write = (): { file: string; lines: string[] } => {
      const file = join(dir, `audit-${Math.random().toString(36).slice(2)}.jsonl`);
      const bus = new JsonlAuditBus(file);
      for (let i = 1; i <= 6; i += 1) bus.publish(ev(i, i % 2 === 0 ? 'b' : 'a'));
      bus.close();
      return { file, lines: readFileSync(file, 'utf8').trimEnd().split('\n') };
    };
    const whole = write();
    expect(await runCli(['audit', 'verify', whole.file])).toEqual({
      code: 0,
      stdout: 'OK: 6 records in 2 sessions, hash chain whole\n',
      stderr: '',
    });
    const cases: [string, (l: string[]) => string[], string][] = [
      ['edited', (l) => l.map((x, i) => (i === 2 ? x.replace('"pct":3', '"pct":4') : x)), ':3: record of session "a" was edited'],
      ['removed', (l) => l.filter((_, i) => i !== 2), ':4: the record before this one (session "a") was removed'],
      ['reordered', (l) => [l[0], l[1], l[4], l[3], l[2], l[5]] as string[], ':3: record of session "a" was moved'],
      ['inserted', (l) => [...l.slice(0, 3), l[0], ...l.slice(3)] as string[], ':4: record of session "a" was inserted'],
    ];
    for (const [kind, tamper, message] of cases) {
      const { file, lines } = write();
      writeFileSync(file, `${tamper(lines).join('\n')}\n`);
      const { code, stdout } = await runCli(['audit', 'verify', file]);
      expect(code, kind).toBe(1);
      expect(stdout).toMatch(new RegExp(`^BROKEN: ${kind}\n`));
      expect(stdout).toContain(`${file}${message}`);
    }
  });

  it('checks a SQLite audit database and reports as JSON', async () => {
    const file = join(dir, 'audit.db');
    const bus = new SqliteAuditBus(file);
    for (let i = 1; i <= 4; i += 1) bus.publish(ev(i, 'a'));
    bus.close();
    expect(JSON.parse((await runCli(['audit', 'verify', file, '--json'])).stdout)).toEqual({ ok: true, records: 4, sessions: 1 });
    const db = new Database(file);
    db.exec('DELETE FROM audit_events WHERE id = 2');
    db.close();
    const { code, stdout } = await runCli(['audit', 'verify', file, '--json']);
    expect(code).toBe(1);
    expect(JSON.parse(stdout)).toMatchObject({ ok: false, break: { kind: 'removed', location: `${file}#3` } });
  });
});
