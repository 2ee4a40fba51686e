import { describe, expect, it } from 'vitest';
import type { LiveMessage } from './live-messages.js';
import { createRunsReader } from './runs-reader.js';

function run(id: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    runId: `run-${id}`,
    task: 'task',
    sessionId: 'worker-1',
    taskId: 't',
    agent: '',
    state: 'running',
    stateText: 'running',
    active: true,
    iteration: 1,
    spentUsd: 0,
    inputTokens: 0,
    outputTokens: 0,
    toolsUsed: [],
    startedAt: 1,
    updatedAt: 1,
    percent: 0,
    ...extra,
  };
}

function reader(): { read: (value: unknown) => LiveMessage | undefined; readText: (text: string) => LiveMessage | undefined } {
  const posted: LiveMessage[] = [];
  const read = createRunsReader(7, (message) => posted.push(message));
  const readText = (text: string): LiveMessage | undefined => {
    posted.length = 0;
    read(text);
    expect(posted.length).toBeLessThanOrEqual(1);
    return posted[0];
  };
  return { readText, read: (value) => readText(JSON.stringify(value)) };
}

const changedIds = (message: LiveMessage | undefined) => (message?.kind === 'runs' ? message.changed.map((r) => r.id) : message);

describe('createRunsReader', () => {
  it('hands over every run at first, then only the runs that read differently, each in the slot it first had', () => {
    const { read } = reader();
    const first = read({ runs: [run('a'), run('b'), run('c', { active: false, state: 'completed' })] });
    expect(first).toMatchObject({ kind: 'runs', stream: 7, order: ['a', 'b', 'c'], total: 3 });
    expect(changedIds(first)).toEqual(['a', 'b', 'c']);
    // b ends (the server now lists it after the live ones) and d starts: b keeps its slot, d goes in with the live runs.
    const second = read({
      runs: [run('a'), run('d'), run('b', { active: false, state: 'completed' }), run('c', { active: false, state: 'completed' })],
    });
    expect(second).toMatchObject({ order: ['a', 'd', 'b', 'c'], total: 4 });
    expect(changedIds(second)).toEqual(['d', 'b']);
    expect(
      changedIds(
        read({
          runs: [run('a'), run('d'), run('b', { active: false, state: 'completed' }), run('c', { active: false, state: 'completed' })],
        }),
      ),
    ).toEqual([]);
  });

  it('refuses a frame with a run that does not match, saying where, and reads the next one against the last good one', () => {
    const { read } = reader();
    read({ runs: [run('a'), run('b')] });
    expect(read({ runs: [run('a', { iteration: 2 }), run('b', { iteration: 'two' })] })).toEqual({
      kind: 'status',
      stream: 7,
      status: {
        kind: 'error',
        text: expect.stringMatching(/^The server sent a frame this page cannot read: frame\.runs\.1\.iteration: /) as unknown,
      },
    });
    expect(changedIds(read({ runs: [run('a', { iteration: 2 }), run('b')] }))).toEqual(['a']);
  });

  it.each([
    ['not JSON', '{"runs": [', 'not JSON'],
    ['null', 'null', 'frame.runs: expected array'],
    ['runs not a list', '{"runs": 5}', 'frame.runs: expected array'],
    ['a run that is not an object', '{"runs": [7]}', 'frame.runs.0: '],
    [
      'nesting deeper than JSON.stringify goes',
      `{"runs": [{"id": "a", "task": ${'['.repeat(200_000)}${']'.repeat(200_000)}}]}`,
      'frame.runs.0',
    ],
    ['a huge text in a field', JSON.stringify({ runs: [run('a', { iteration: 'x'.repeat(5_000_000) })] }), 'frame.runs.0.iteration: '],
  ])('refuses a hostile frame (%s) with a status saying what, and never throws', { timeout: 20_000 }, (_name, text, problem) => {
    const message = reader().readText(text);
    expect(message?.kind).toBe('status');
    expect(message?.kind === 'status' ? message.status.text : '').toContain(`cannot read: ${problem}`);
  });

  it('keeps control characters as text, drops unknown fields, and lets no __proto__ key reach a prototype', { timeout: 20_000 }, () => {
    const text = `{"runs": [${JSON.stringify(run('a', { task: 'a\u0000b\u001b[31mc\u202e' })).slice(0, -1)}, "__proto__": {"polluted": true}, "extra": 1}]}`;
    const message = reader().readText(text);
    const got = message?.kind === 'runs' ? message.changed[0] : undefined;
    expect(got?.task).toBe('a\u0000b\u001b[31mc\u202e');
    expect(got === undefined ? [] : Object.keys(got)).not.toContain('extra');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('reads 20,000 runs in one frame, then the same frame again with nothing changed', { timeout: 60_000 }, () => {
    const { read } = reader();
    const runs = Array.from({ length: 20_000 }, (_, i) => run(`r${String(i)}`, { active: i < 50 }));
    expect(changedIds(read({ runs }))).toHaveLength(20_000);
    const again = read({ runs });
    expect([changedIds(again), again?.kind === 'runs' ? again.order.length : 0]).toEqual([[], 20_000]);
  });
});
