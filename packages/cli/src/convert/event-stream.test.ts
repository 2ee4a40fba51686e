import { readdirSync, readFileSync } from 'node:fs';
import { ManualClock, type ProgressEvent } from '@headway/protocol';
import { deepValueArb } from '@headway/protocol/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fixture } from '../run-cli.test-util.js';
import { EventStream, type EventStreamOptions, MAX_LINE_DEPTH } from './event-stream.js';

interface Converted {
  events: ProgressEvent[];
  warnings: string[];
  notUnderstood: number;
}

/** Every event and warning `lines` give, on a clock that only moves when told. */
function convert(lines: readonly string[], options: EventStreamOptions = {}): Converted {
  const warnings: string[] = [];
  const stream = new EventStream({
    clock: new ManualClock({ start: 1_700_000_000_000 }),
    timing: 'stream',
    onWarning: (w) => warnings.push(w),
    ...options,
  });
  const events = [...lines.flatMap((l) => stream.push(l)), ...stream.end()];
  return { events, warnings, notUnderstood: stream.notUnderstood };
}

/** The same lines read without the depth check: what `EventStream` gave before it had one. */
const unchecked = (lines: readonly string[], options: EventStreamOptions = {}): Converted =>
  convert(lines, { ...options, maxLineDepth: Infinity });

/** A Claude Code line whose one tool input is `input` (JSON text): the input starts 4 levels down. */
const toolLine = (input: string, id = 't1'): string =>
  `{"type":"assistant","session_id":"s","message":{"id":"m-${id}","content":[{"type":"tool_use","id":"${id}","name":"Bash","input":${input}}]}}`;
const nested = (depth: number): string => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
const INIT = JSON.stringify({ type: 'system', subtype: 'init', session_id: 's' });
const RESULT = (id: string): string =>
  JSON.stringify({ type: 'user', message: { content: [{ type: 'tool_result', tool_use_id: id, content: 'ok' }] } });
const DONE = JSON.stringify({ type: 'result', subtype: 'success', duration_ms: 9000 });

describe('EventStream: lines nested deeper than MAX_LINE_DEPTH', () => {
  it('converts a line exactly MAX_LINE_DEPTH deep as before, and refuses one level more, unparsed, naming the line and the character', () => {
    const atBound = toolLine(nested(MAX_LINE_DEPTH - 4));
    const over = toolLine(nested(MAX_LINE_DEPTH - 3), 't2');
    const lines = [INIT, atBound, RESULT('t1'), over, RESULT('t2'), DONE];
    const { events, warnings, notUnderstood } = convert(lines, { from: 'claude-code' });
    expect(warnings).toEqual([
      `line 4: nested deeper than ${MAX_LINE_DEPTH} levels (arrays and objects) at character ${over.indexOf('"input":') + 9 + 5 * (MAX_LINE_DEPTH - 4)}; skipped (later lines like it are only counted)`,
    ]);
    expect(notUnderstood).toBe(1);
    expect(events.map((e) => (e.type === 'tool.executing' || e.type === 'tool.completed' ? `${e.type} ${e.toolName}` : e.type))).toEqual([
      'run.started',
      'step.started',
      'tool.executing Bash',
      'tool.completed Bash',
      // The refused line's tool call is not known: its result is a tool's, as any result without its call.
      'tool.completed tool',
      'step.finished',
      'run.finished',
    ]);
    // The event keeps 20 levels of the input at the bound, as it did before the check.
    const executing = events.find((e) => e.type === 'tool.executing');
    expect(JSON.stringify(executing)).toContain('[nested too deep]');
    expect(convert(lines.slice(0, 3), { from: 'claude-code' })).toEqual(unchecked(lines.slice(0, 3), { from: 'claude-code' }));
  });

  it('counts every over-deep line but tells the first only, apart from the first line not understood for another reason', () => {
    const deep = `  ${'['.repeat(500)}${']'.repeat(500)}`;
    const { events, warnings, notUnderstood } = convert(['not json', deep, deep, '{"type":"mystery"}'], { from: 'claude-code' });
    expect(events).toEqual([]);
    expect(notUnderstood).toBe(4);
    expect(warnings).toEqual([
      'line 1: not JSON; skipped (later lines like it are only counted)',
      `line 2: nested deeper than ${MAX_LINE_DEPTH} levels (arrays and objects) at character ${MAX_LINE_DEPTH + 3}; skipped (later lines like it are only counted)`,
    ]);
  });

  it('refuses a headway event line nested too deep, and follows maxLineDepth', () => {
    const event = (depth: number): string => `{"runId":"r","seq":1,"ts":1,"type":"tool.executing","toolName":"t","args":${nested(depth)}}`;
    expect(convert([event(MAX_LINE_DEPTH - 1)]).events.map((e) => e.type)).toEqual(['tool.executing']);
    const over = event(MAX_LINE_DEPTH);
    expect(convert([over]).warnings).toEqual([
      `line 1: nested deeper than ${MAX_LINE_DEPTH} levels (arrays and objects) at character ${over.indexOf('"args":') + 8 + 5 * (MAX_LINE_DEPTH - 1)}; skipped (later lines like it are only counted)`,
    ]);
    expect(convert([event(3)], { maxLineDepth: 3 }).notUnderstood).toBe(1);
    expect(convert([event(2)], { maxLineDepth: 3 }).events).toHaveLength(1);
  });
});

describe('EventStream: the depth check changes nothing below the bound', () => {
  const fixtures = readdirSync(fixture('')).filter((f) => f.endsWith('.jsonl'));

  it.each(fixtures)('%s gives the same events and warnings as without the check', (name) => {
    const lines = readFileSync(fixture(name), 'utf8').split('\n');
    const checked = convert(lines);
    expect(checked.events.length).toBeGreaterThan(0);
    expect(checked).toEqual(unchecked(lines));
  });

  it('generated lines up to MAX_LINE_DEPTH deep, of every format and none, give the same events and warnings', () => {
    const line = fc.oneof(
      deepValueArb(MAX_LINE_DEPTH - 4).map((v) => toolLine(JSON.stringify(v))),
      deepValueArb(MAX_LINE_DEPTH - 4).map((v) =>
        JSON.stringify({ type: 'user', message: { content: [{ type: 'tool_result', tool_use_id: 't1', content: v }] } }),
      ),
      deepValueArb(MAX_LINE_DEPTH - 2).map((v) =>
        JSON.stringify({ type: 'item.completed', item: { type: 'todo_list', id: 'x', items: v } }),
      ),
      fc.json({ maxDepth: 8 }),
      fc.string({ unit: fc.constantFrom('{', '}', '[', ']', '"', '\\', ':', ',', 'a', '1') }),
      fc.constantFrom(INIT, RESULT('t1'), DONE, '', 'not json'),
    );
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 12 }),
        fc.constantFrom('auto', 'claude-code', 'codex', 'gemini', 'headway'),
        (lines, from) => {
          expect(convert(lines, { from })).toEqual(unchecked(lines, { from }));
        },
      ),
      { numRuns: 300 },
    );
  });
});
