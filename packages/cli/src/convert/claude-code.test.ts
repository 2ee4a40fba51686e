import { readFileSync } from 'node:fs';
import { parseProgressEvent, systemClock, type ProgressEvent } from '@headway/protocol';
import {
  controlTextArb,
  deepValueArb,
  hostileValueArb,
  HOSTILE_RUN_PARAMETERS,
  HOSTILE_TEST_TIMEOUT,
  hugeStringArb,
  MACHINE_LOAD_FACTOR,
  progressEventArbitraries,
} from '@headway/protocol/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fixture } from '../run-cli.test-util.js';
import { ClaudeCodeConverter } from './claude-code.js';
import { CodexConverter } from './codex.js';
import { EventStream } from './event-stream.js';
import { GeminiConverter } from './gemini.js';

/** A time limit of this file, stretched on a busy machine as the hostile fuzzing limits are. */
const scaled = (ms: number): number => Math.round(ms * MACHINE_LOAD_FACTOR);

function convert(
  name: string,
  from: 'auto' | 'claude-code' | 'codex' | 'gemini' = 'auto',
): { events: ProgressEvent[]; stream: EventStream; warnings: string[] } {
  const warnings: string[] = [];
  let t = 1000;
  const stream = new EventStream({ from, clock: { ...systemClock, now: () => (t += 10) }, onWarning: (w) => warnings.push(w) });
  const events: ProgressEvent[] = [];
  for (const line of readFileSync(fixture(name), 'utf8').split('\n')) events.push(...stream.push(line));
  events.push(...stream.end());
  return { events, stream, warnings };
}

function last(events: ProgressEvent[]): ProgressEvent {
  const e = events.at(-1);
  if (e === undefined) throw new Error('no events');
  return e;
}

/** One short line per event: its type and what tells it apart. */
function summary(e: ProgressEvent): string {
  switch (e.type) {
    case 'tool.executing':
      return `tool.executing ${e.toolName}`;
    case 'tool.completed':
      return `tool.completed ${e.toolName} ${e.ok ? 'ok' : 'error'}${e.preview === undefined ? '' : ` "${e.preview.slice(0, 24).trimEnd()}"`}`;
    case 'plan.updated':
      return `plan ${e.items.map((i) => `${i.status}:${i.text}`).join(' | ')}`;
    case 'step.started':
    case 'step.finished':
      return `${e.type} ${e.step}`;
    case 'text.delta':
      return `text "${e.text.slice(0, 30).trimEnd()}"`;
    case 'thinking':
      return `thinking "${e.content}"`;
    case 'run.finished':
      return `run.finished ${e.outcome} ${e.durationMs}ms ${e.tokenCount ?? '-'} tokens${e.summary === undefined ? '' : `: ${e.summary}`}`;
    case 'run.error':
      return `run.error ${e.error}`;
    case 'run.started':
      return `run.started ${e.agentName} ${e.sessionId ?? ''}`;
    default:
      return e.type;
  }
}

describe('the converters, on streams in each tool’s documented format', () => {
  it('Claude Code stream-json: turns by message id, tools, TodoWrite as plan, result with tokens and cost', () => {
    const { events, stream, warnings } = convert('claude-code-todo.jsonl');
    expect(stream.format).toBe('claude-code');
    expect(warnings).toEqual([]);
    for (const e of events) expect(parseProgressEvent(e)).toEqual(e);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    expect(new Set(events.map((e) => e.runId))).toEqual(new Set(['5a2e6f0c-1f7d-4c55-9a4e-2b7d0c9e8f11']));
    expect(events.slice(0, 12).map(summary)).toEqual([
      'run.started claude-code 5a2e6f0c-1f7d-4c55-9a4e-2b7d0c9e8f11',
      'step.started turn 1',
      'text "I\'ll start by planning the wor"',
      'tool.executing TodoWrite',
      'plan in_progress:Find the failing test | pending:Fix the bug in sum() | pending:Run the whole test suite',
      'tool.completed TodoWrite ok "Todos have been modified"',
      'step.finished turn 1',
      'step.started turn 2',
      'tool.executing Bash',
      'tool.completed Bash error "Exit code 1 FAIL src/sum"',
      'step.finished turn 2',
      'step.started turn 3',
    ]);
    expect(
      events
        .filter((e) => e.type === 'plan.updated')
        .map(summary)
        .at(-1),
    ).toBe('plan completed:Find the failing test | completed:Fix the bug in sum() | completed:Run the whole test suite');
    expect(events.slice(-3).map(summary)).toEqual([
      'text "Fixed the off-by-one in sum():"',
      'step.finished turn 9',
      'run.finished completed 48211ms 122092 tokens: Fixed the off-by-one in sum(): the loop started at 1. All 3 tests pass. (17 turns, $0.0874)',
    ]);
  });

  it('Claude Code: error_max_turns ends the run at its limit', () => {
    const { events } = convert('claude-code-max-turns.jsonl');
    expect(summary(last(events))).toBe('run.finished limit 9120ms 29957 tokens: stopped at the turn limit (3 turns, $0.0121)');
  });

  it('Codex exec --json: items as tools, todo_list as plan, turn.completed with usage', () => {
    const { events, stream } = convert('codex-todo.jsonl');
    expect(stream.format).toBe('codex');
    for (const e of events) expect(parseProgressEvent(e)).toEqual(e);
    expect(events.map(summary)).toEqual([
      'run.started codex 0199a213-81c0-7800-8aa1-bbab2a035a53',
      'step.started turn 1',
      'thinking "**Planning the fix**"',
      'plan pending:Find the failing test | pending:Fix the bug in sum() | pending:Run the whole test suite',
      'tool.executing shell',
      'tool.completed shell error "FAIL src/sum.test.js exp"',
      'step.finished turn 1',
      'step.started turn 2',
      'plan completed:Find the failing test | pending:Fix the bug in sum() | pending:Run the whole test suite',
      'thinking "**Fixing the loop start**"',
      'tool.executing apply_patch',
      'tool.completed apply_patch ok "update /home/user/app/sr"',
      'step.finished turn 2',
      'step.started turn 3',
      'plan completed:Find the failing test | completed:Fix the bug in sum() | pending:Run the whole test suite',
      'tool.executing shell',
      'tool.completed shell ok "PASS src/sum.test.js Tes"',
      'step.finished turn 3',
      'step.started turn 4',
      'plan completed:Find the failing test | completed:Fix the bug in sum() | completed:Run the whole test suite',
      'text "Fixed the off-by-one in sum();"',
      'step.finished turn 4',
      expect.stringMatching(/^run\.finished completed \d+ms 50333 tokens$/),
    ]);
  });

  it('Codex: turn.failed is the run’s error', () => {
    expect(summary(last(convert('codex-failed.jsonl').events))).toBe('run.error stream disconnected before completion');
  });

  it('gemini-cli stream-json: the lines’ timestamps, write_todos as plan (cancelled items leave it), errors as failed tools', () => {
    const { events, stream } = convert('gemini-todo.jsonl');
    expect(stream.format).toBe('gemini');
    for (const e of events) expect(parseProgressEvent(e)).toEqual(e);
    expect(events[0]?.ts).toBe(Date.parse('2025-10-10T12:00:00.000Z'));
    const tools = events.filter((e) => e.type === 'tool.completed');
    expect(tools.map(summary)).toContain('tool.completed read_file error "File not found: /home/us"');
    expect(tools.find((e) => e.toolName === 'run_shell_command')?.durationMs).toBe(4000);
    expect(events.filter((e) => e.type === 'plan.updated').map(summary)[2]).toBe(
      'plan completed:Find the failing test | completed:Fix the bug in sum() | in_progress:Run the whole test suite',
    );
    expect(summary(last(events))).toBe('run.finished completed 30000ms 14210 tokens');
  });

  it('counts a line it does not understand and warns once, whatever the line', () => {
    const warnings: string[] = [];
    const stream = new EventStream({ from: 'claude-code', onWarning: (w) => warnings.push(w) });
    for (const line of ['not json', '{"type":"mystery"}', '[1,2]', '"str"', '{"type":"assistant","message":7}'])
      expect(stream.push(line)).toEqual([]);
    expect(stream.notUnderstood).toBe(5);
    expect(warnings).toEqual(['line 1: not JSON; skipped (later lines like it are only counted)']);
  });

  it('passes headway event lines through, validated, and emits nothing after the terminal event', () => {
    const stream = new EventStream();
    const lines = [
      { runId: 'r', seq: 1, ts: 1, type: 'run.started', agentName: 'a' },
      { runId: 'r', seq: 2, ts: 2, type: 'run.finished', outcome: 'completed', durationMs: 1 },
      { runId: 'r', seq: 3, ts: 3, type: 'text.delta', text: 'late' },
    ].map((e) => JSON.stringify(e));
    expect(lines.flatMap((l) => stream.push(l)).map((e) => e.type)).toEqual(['run.started', 'run.finished']);
    expect(stream.format).toBe('headway');
  });
});

describe('the converters under hostile input', () => {
  const hostileJson = fc.oneof(
    fc.json({ maxDepth: 6 }),
    fc.jsonValue({ maxDepth: 4 }).map((v) =>
      JSON.stringify({
        type: 'assistant',
        message: { id: 'm', content: [v, { type: 'tool_use', name: 'TodoWrite', input: { todos: v } }] },
      }),
    ),
    fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify({ type: 'item.completed', item: { type: 'todo_list', id: 'x', items: v } })),
    fc
      .jsonValue({ maxDepth: 4 })
      .map((v) =>
        JSON.stringify({ type: 'tool_use', timestamp: 'not a date', tool_name: 'write_todos', tool_id: v, parameters: { todos: v } }),
      ),
    fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify({ type: 'result', subtype: v, usage: v, total_cost_usd: v, result: v })),
    fc.string({ unit: 'binary', maxLength: 200 }),
    fc.constantFrom(
      '{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"__proto__"}]}}',
      `{"a":${'['.repeat(5000)}`,
      '\u0000\u001b[2J',
    ),
  );

  it('never throws, never emits an invalid event, and keeps seq increasing', () => {
    for (const from of ['auto', 'claude-code', 'codex', 'gemini'] as const) {
      fc.assert(
        fc.property(fc.array(hostileJson, { maxLength: 30 }), (lines) => {
          const stream = new EventStream({ from, maxLineLength: 100_000 });
          const events = [...lines.flatMap((l) => stream.push(l)), ...stream.end()];
          let seq = 0;
          for (const e of events) {
            expect(parseProgressEvent(e)).toEqual(e);
            expect(e.seq).toBeGreaterThan(seq);
            seq = e.seq;
          }
          expect(stream.notUnderstood).toBeLessThanOrEqual(lines.length);
        }),
        { numRuns: 150, interruptAfterTimeLimit: scaled(20_000), timeout: scaled(2_000) },
      );
    }
  });

  it('skips a line over the length limit without reading it as JSON', () => {
    const stream = new EventStream({ maxLineLength: 1000 });
    expect(stream.push(`{"type":"init","timestamp":"${'x'.repeat(2000)}"}`)).toEqual([]);
    expect(stream.notUnderstood).toBe(1);
  });

  it(
    'takes hostile values (throwing getters, revoked proxies, cycles) straight into each converter without throwing',
    () => {
      fc.assert(
        fc.property(hostileValueArb(), (value) => {
          for (const converter of [new ClaudeCodeConverter(), new CodexConverter(), new GeminiConverter()]) {
            for (const wrapped of [
              value,
              { type: 'assistant', message: { content: [value] } },
              { type: 'item.completed', item: value },
              { type: 'tool_use', parameters: value },
            ]) {
              converter.convert(wrapped, 0);
            }
            converter.end(0);
          }
        }),
        HOSTILE_RUN_PARAMETERS,
      );
    },
    HOSTILE_TEST_TIMEOUT,
  );

  it('keeps deep, huge and control-character text within the protocol’s limits', () => {
    const line = fc.oneof(
      deepValueArb(1500).map((v) =>
        JSON.stringify({ type: 'user', message: { content: [{ type: 'tool_result', tool_use_id: 't', content: v }] }, session_id: 's' }),
      ),
      hugeStringArb().map((t) =>
        JSON.stringify({
          type: 'assistant',
          message: {
            id: 'm',
            content: [{ type: 'tool_use', id: 't', name: 'TodoWrite', input: { todos: [{ content: t, status: 'pending' }] } }],
          },
          session_id: 's',
        }),
      ),
      controlTextArb().map((t) =>
        JSON.stringify({
          type: 'tool_use',
          timestamp: '2025-01-01T00:00:00Z',
          tool_name: t,
          tool_id: t,
          parameters: { todos: [{ description: t, status: 'completed' }] },
        }),
      ),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 5 }), (lines) => {
        const stream = new EventStream();
        for (const e of [...lines.flatMap((l) => stream.push(l)), ...stream.end()]) expect(parseProgressEvent(e)).toEqual(e);
      }),
      HOSTILE_RUN_PARAMETERS,
    );
  });

  it('passes every valid headway event through unchanged (as JSON has it: -0 is written 0)', () => {
    fc.assert(
      fc.property(progressEventArbitraries().event, (event) => {
        const line = JSON.stringify(event);
        // Redaction off: this is about the pass-through; secret-shaped text has its own tests.
        expect(new EventStream({ from: 'headway', redact: false }).push(line)).toEqual([JSON.parse(line)]);
      }),
      { numRuns: 300 },
    );
  });
});
