// `headway convert` on hostile input: every event it writes validates, `headway replay` reads it
// back, secrets do not come out, and a tool input nested 100,000 deep ends nothing (in a child
// process: a stack overflow there would end the command).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock, parseProgressEvent, type ProgressEvent } from '@headway/protocol';
import { controlTextArb, HOSTILE_PARSER_RUN_PARAMETERS, HOSTILE_TEST_TIMEOUT, secretArb } from '@headway/protocol/testing';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { CliIo } from '../io/cli-io.js';
import { main } from '../main.js';
import { runCli } from '../run-cli.test-util.js';

const dir = mkdtempSync(join(tmpdir(), 'headway-convert-fuzz-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function run(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: { write: (chunk: string) => ((stdout += chunk), true) } as unknown as NodeJS.WritableStream,
    stderr: { write: (chunk: string) => ((stderr += chunk), true) },
    env: { NO_COLOR: '1' },
    clock: new ManualClock({ start: 1_700_000_000_000, autoAdvance: true }),
  };
  const code = await main(argv, io);
  return { code, stdout, stderr };
}

let n = 0;
/** Converts `lines`, checks every event, replays the output: the exit code replay gives. */
async function convertAndReplay(lines: readonly string[], extra: string[] = []): Promise<{ events: ProgressEvent[]; stdout: string }> {
  n += 1;
  const input = join(dir, `in-${n}.jsonl`);
  const output = join(dir, `out-${n}.jsonl`);
  writeFileSync(input, lines.join('\n'));
  const converted = await run(['convert', input, ...extra]);
  if (converted.code !== 0) {
    // The only other answer allowed: a typed refusal (exit 2) or nothing understood (exit 1).
    expect([1, 2]).toContain(converted.code);
    expect(converted.stderr).toMatch(/^headway/);
    return { events: [], stdout: '' };
  }
  const events = converted.stdout
    .trimEnd()
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => parseProgressEvent(JSON.parse(l)));
  writeFileSync(output, converted.stdout);
  const replayed = await run(['replay', output, '--speed', '0', '--plain']);
  const last = events.at(-1);
  const expected = last?.type === 'run.finished' ? (last.outcome === 'completed' ? 0 : 3) : last?.type === 'run.cancelled' ? 3 : 1;
  expect(replayed.stderr).not.toMatch(/not JSON|Invalid progress event/);
  expect(replayed.code).toBe(expected);
  return { events, stdout: converted.stdout };
}

const claude = (message: object, extra: object = {}): string => JSON.stringify({ type: 'assistant', session_id: 's', message, ...extra });

describe('headway convert: every event it writes validates', () => {
  it.each<[string, string[]]>([
    [
      'an empty session id',
      [
        JSON.stringify({ type: 'system', subtype: 'init', session_id: '' }),
        JSON.stringify({ type: 'result', subtype: 'success', session_id: '', duration_ms: 5 }),
      ],
    ],
    [
      'a negative duration_ms',
      [
        JSON.stringify({ type: 'system', subtype: 'init', session_id: 's' }),
        JSON.stringify({ type: 'result', subtype: 'success', duration_ms: -500 }),
      ],
    ],
    [
      'fractional and overflowing token counts',
      [
        claude({ id: 'm1', content: [{ type: 'text', text: 'hi' }], usage: { input_tokens: 1.5, output_tokens: 2.25 } }),
        JSON.stringify({
          type: 'result',
          subtype: 'success',
          duration_ms: 10,
          usage: { input_tokens: 1e308, cache_read_input_tokens: 1e308, output_tokens: 1e308 },
        }),
      ],
    ],
    [
      'TodoWrite with duplicate ids',
      [
        claude({
          id: 'm1',
          content: [
            {
              type: 'tool_use',
              id: 't1',
              name: 'TodoWrite',
              input: {
                todos: [
                  { id: '1', content: 'a', status: 'pending' },
                  { id: '1', content: 'b', status: 'in_progress' },
                  { id: 'x'.repeat(500), content: 'c', status: 'pending' },
                  { id: `${'x'.repeat(400)}y`, content: 'd', status: 'pending' },
                ],
              },
            },
          ],
        }),
        JSON.stringify({ type: 'result', subtype: 'success', duration_ms: 10 }),
      ],
    ],
    [
      'gemini timestamps before 1970 and out of order',
      [
        JSON.stringify({ type: 'init', timestamp: '1969-12-31T23:59:59.000Z', session_id: 'g', model: 'm' }),
        JSON.stringify({ type: 'message', timestamp: '1960-01-01T00:00:00.000Z', role: 'assistant', content: 'x' }),
        JSON.stringify({ type: 'tool_use', timestamp: '2025-01-01T00:00:10.000Z', tool_name: 't', tool_id: '1', parameters: {} }),
        JSON.stringify({ type: 'tool_result', timestamp: '2025-01-01T00:00:05.000Z', tool_id: '1', status: 'success', output: 'ok' }),
        JSON.stringify({
          type: 'result',
          timestamp: '0001-01-01T00:00:00.000Z',
          status: 'success',
          stats: { total_tokens: 1.5, duration_ms: -3 },
        }),
      ],
    ],
  ])('%s: convert’s output replays', async (_what, lines) => {
    const { events } = await convertAndReplay(lines);
    expect(events.length).toBeGreaterThan(0);
    expect(events.every((e) => e.runId !== '' && e.ts >= 0)).toBe(true);
  });

  it('any mix of agent lines with hostile values: convert’s output always replays', { timeout: HOSTILE_TEST_TIMEOUT }, async () => {
    const value = fc.oneof(
      fc.constantFrom(-1, 1.5, 1e308, -1e308, 0, '', ' ', '1969-01-01T00:00:00Z', '2025-01-01T00:00:00Z', null, true, [], {}),
      controlTextArb(),
      fc.integer(),
      fc.double(),
      fc.string(),
    );
    const todo = fc.record({
      id: value,
      content: value,
      description: value,
      status: fc.constantFrom('pending', 'in_progress', 'completed', 'cancelled'),
    });
    const line = fc.oneof(
      fc.record({ type: fc.constant('system'), subtype: fc.constant('init'), session_id: value }),
      fc.record({
        type: fc.constant('assistant'),
        session_id: value,
        timestamp: value,
        message: fc.record({
          id: value,
          model: value,
          usage: fc.record({ input_tokens: value, output_tokens: value, cache_read_input_tokens: value }),
          content: fc.array(
            fc.oneof(
              fc.record({ type: fc.constant('text'), text: value }),
              fc.record({
                type: fc.constant('tool_use'),
                id: value,
                name: fc.constantFrom('TodoWrite', 'Bash'),
                input: fc.record({ todos: fc.array(todo, { maxLength: 4 }), command: value }),
              }),
            ),
            { maxLength: 3 },
          ),
        }),
      }),
      fc.record({
        type: fc.constant('user'),
        message: fc.record({
          content: fc.array(fc.record({ type: fc.constant('tool_result'), tool_use_id: value, content: value, is_error: value }), {
            maxLength: 2,
          }),
        }),
      }),
      fc.record({
        type: fc.constant('result'),
        subtype: fc.constantFrom('success', 'error_max_turns', 'error_during_execution'),
        duration_ms: value,
        num_turns: value,
        total_cost_usd: value,
        result: value,
        usage: fc.record({ input_tokens: value, output_tokens: value }),
      }),
      fc.record({
        type: fc.constantFrom('init', 'message', 'tool_use', 'tool_result', 'result'),
        timestamp: value,
        session_id: value,
        role: fc.constantFrom('assistant', 'user'),
        content: value,
        tool_name: fc.constantFrom('write_todos', 'x'),
        tool_id: value,
        parameters: fc.record({ todos: fc.array(todo, { maxLength: 3 }) }),
        status: value,
        output: value,
        stats: fc.record({ total_tokens: value, duration_ms: value }),
      }),
      fc.record({
        type: fc.constantFrom('thread.started', 'turn.started', 'item.started', 'item.completed', 'turn.completed', 'turn.failed'),
        thread_id: value,
        item: fc.record({
          id: value,
          type: fc.constantFrom('command_execution', 'todo_list', 'agent_message', 'reasoning'),
          text: value,
          command: value,
          exit_code: value,
          items: fc.array(fc.record({ text: value, completed: value }), { maxLength: 3 }),
        }),
        usage: fc.record({ input_tokens: value, output_tokens: value }),
      }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          line.map((l) => JSON.stringify(l)),
          { minLength: 1, maxLength: 8 },
        ),
        async (lines) => {
          await convertAndReplay(lines);
        },
      ),
      { ...HOSTILE_PARSER_RUN_PARAMETERS, numRuns: 100 },
    );
  });

  it(
    'a tool input nested 100,000 deep: the line is refused unparsed, named on stderr, and the command ends normally with all other output',
    { timeout: HOSTILE_TEST_TIMEOUT },
    async () => {
      const deep = (depth: number): string => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
      const tool = (id: string, input: string): string =>
        `{"type":"assistant","session_id":"s","message":{"id":"m-${id}","content":[{"type":"tool_use","id":"${id}","name":"Bash","input":${input}}]}}`;
      const result = (id: string): string =>
        JSON.stringify({ type: 'user', message: { content: [{ type: 'tool_result', tool_use_id: id, content: 'ok' }] } });
      const stdin = [
        JSON.stringify({ type: 'system', subtype: 'init', session_id: 's' }),
        tool('t1', deep(96)),
        result('t1'),
        tool('t2', deep(100_000)),
        result('t2'),
        JSON.stringify({ type: 'result', subtype: 'success', duration_ms: 1000 }),
        '',
      ].join('\n');
      // A child process: a stack overflow or a hang there fails this test, not the test runner.
      const { code, stdout, stderr } = await runCli(['convert'], { stdin });
      expect(stderr).toBe(
        [
          `headway: stdin: line 4: nested deeper than 100 levels (arrays and objects) at character ${tool('t2', '').indexOf('"input":') + 9 + 5 * 96}; skipped (later lines like it are only counted)`,
          'headway: 1 of 6 lines not understood',
          '',
        ].join('\n'),
      );
      expect(code).toBe(0);
      const events = stdout
        .trimEnd()
        .split('\n')
        .map((l) => parseProgressEvent(JSON.parse(l)));
      expect(
        events
          .map((e) => (e.type === 'tool.executing' || e.type === 'tool.completed' ? `${e.type} ${e.toolName}` : e.type))
          .filter((t) => t !== 'progress'),
      ).toEqual([
        'run.started',
        'step.started',
        'tool.executing Bash',
        'tool.completed Bash',
        'tool.completed tool',
        'step.finished',
        'run.finished',
      ]);
      // Within the bound, the input is kept to 20 levels, as before.
      expect(JSON.stringify(events.find((e) => e.type === 'tool.executing'))).toContain('[nested too deep]');
    },
  );
});

describe('headway convert: no secret comes out', () => {
  it('redacts API keys, passwords, Bearer tokens and URL passwords in tool inputs, results and text; --keep-secrets keeps them', async () => {
    const lines = [
      JSON.stringify({ type: 'system', subtype: 'init', session_id: 's' }),
      claude({
        id: 'm1',
        content: [
          { type: 'text', text: 'Using OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuvwx now' },
          {
            type: 'tool_use',
            id: 't1',
            name: 'Bash',
            input: { command: "curl -H 'Authorization: Bearer abcdefgh12345678XYZ' https://admin:hunter2hunter2@db.example/x" },
          },
        ],
      }),
      JSON.stringify({
        type: 'user',
        message: {
          content: [
            {
              type: 'tool_result',
              tool_use_id: 't1',
              content: 'DB_PASSWORD=s3cretpassw0rd\nOPENAI_API_KEY=sk-proj-zyxwvutsrqponmlkjihgfedc',
            },
          ],
        },
      }),
      JSON.stringify({ type: 'result', subtype: 'success', duration_ms: 1000, result: 'done with password: p4ssw0rdp4ss' }),
    ];
    const secrets = [
      'abcdefghijklmnopqrstuvwx',
      'abcdefgh12345678XYZ',
      'hunter2hunter2',
      's3cretpassw0rd',
      'zyxwvutsrqponmlkjihgfedc',
      'p4ssw0rdp4ss',
    ];
    const { stdout } = await convertAndReplay(lines);
    for (const secret of secrets) expect(stdout).not.toContain(secret);
    expect(stdout).toContain('[REDACTED]');
    const kept = await convertAndReplay(lines, ['--keep-secrets']);
    for (const secret of secrets) expect(kept.stdout).toContain(secret);
  });

  it('no secret of any known shape in a tool input or result comes out', { timeout: HOSTILE_TEST_TIMEOUT }, async () => {
    await fc.assert(
      fc.asyncProperty(secretArb, secretArb, async (input, result) => {
        const { stdout } = await convertAndReplay([
          JSON.stringify({ type: 'system', subtype: 'init', session_id: 's' }),
          claude({ id: 'm1', content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: `run ${input.text}` } }] }),
          JSON.stringify({
            type: 'user',
            message: { content: [{ type: 'tool_result', tool_use_id: 't1', content: `out ${result.text}` }] },
          }),
          JSON.stringify({ type: 'result', subtype: 'success', duration_ms: 10 }),
        ]);
        expect(stdout).not.toContain(input.secret);
        expect(stdout).not.toContain(result.secret);
      }),
      { ...HOSTILE_PARSER_RUN_PARAMETERS, numRuns: 60 },
    );
  });
});
