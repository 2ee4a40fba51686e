// Strings from a store or a stream reach the terminal neutralised: the exact bytes `headway`
// prints for hostile session ids, tool-call ids and model text.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '@headway/protocol';
import { SqliteCheckpointStore, SqliteSessionStore } from '@headway/store-sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliIo } from './io/cli-io.js';
import { main } from './main.js';
import { terminalJson, terminalLines, terminalText } from './terminal-text.js';

const dir = mkdtempSync(join(tmpdir(), 'headway-terminal-text-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const ESC = '\u001b';
const BEL = '\u0007';
const OSC_TITLE = `${ESC}]0;pwned${BEL}`;
const CLEAR = `${ESC}[2J`;
const RLO = '\u202e';
const CSI_C1 = '\u009b';

async function run(
  argv: string[],
  clock = new ManualClock({ start: 1_000_000 }),
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: { write: (chunk: string) => ((stdout += chunk), true) } as unknown as NodeJS.WritableStream,
    stderr: { write: (chunk: string) => ((stderr += chunk), true) },
    env: { NO_COLOR: '1' },
    clock,
  };
  const code = await main(argv, io);
  return { code, stdout, stderr };
}

/** No byte a terminal acts on: C0 but \n, DEL, C1, bidi controls. */
function expectInert(text: string): void {
  // eslint-disable-next-line no-control-regex -- the point of the test
  expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/);
}

describe('terminalText', () => {
  it('turns controls and bidi overrides into U+FFFD and line breaks into spaces', () => {
    expect(terminalText(`a${OSC_TITLE}b${CLEAR}c${RLO}d${CSI_C1}e\r\nf\tg`)).toBe('a\uFFFD]0;pwned\uFFFDb\uFFFD[2Jc\uFFFDd\uFFFDe f g');
    expect(terminalText('plain — ünïcode ✓')).toBe('plain — ünïcode ✓');
    expect(terminalLines(`one${ESC}\ntwo${RLO}`)).toBe('one\uFFFD\ntwo\uFFFD');
  });

  it('writes the same JSON value with what a terminal acts on escaped', () => {
    const value = { id: `x${RLO}${CSI_C1}${ESC}\u2028` };
    const text = terminalJson(value);
    expect(text).toBe('{"id":"x\\u202e\\u009b\\u001b\\u2028"}');
    expect(JSON.parse(text)).toEqual(value);
  });
});

describe('stored ids reach the terminal neutralised', () => {
  const db = join(dir, 'hostile.db');
  const session = `s${OSC_TITLE}${CLEAR}${RLO}1`;
  const run1 = `cp${ESC}[31m${RLO}`;
  beforeAll(() => {
    const store = new SqliteCheckpointStore(db, { clock: new ManualClock({ start: 1_000_000 - 120_000 }) });
    const state = { iteration: 2, toolsUsed: [], usage: { inputTokens: 1, outputTokens: 2 }, spentUsd: 0.01, providerCalls: 1 };
    store.create({ id: run1, runId: `r${BEL}`, taskId: `t${CSI_C1}`, sessionId: session, input: 'x', messages: [], log: [], state });
    store.update(run1, {
      toolCalls: [{ toolCallId: `call${OSC_TITLE}`, name: `bash${RLO}`, args: {}, index: 0, status: 'started' }],
    });
    const sessions = new SqliteSessionStore(store.database);
    sessions.create(session);
    sessions.recordRun(session, { messages: [], spentUsd: 0.01, calls: 1 });
    store.close();
  });

  it('runs list prints the session and run ids with no escape sequence', async () => {
    const { code, stdout } = await run(['runs', 'list', '--store', `sqlite:${db}`]);
    expect(code).toBe(0);
    expectInert(stdout);
    expect(stdout.split('\n')[1]).toBe(
      `r\uFFFD   cp\uFFFD[31m\uFFFD    s\uFFFD]0;pwned\uFFFD\uFFFD[2J\uFFFD1  interrupted  2m 00s  2          $0.0100  resume    -`,
    );
  });

  it('runs show, resume and --json print no escape sequence', async () => {
    for (const argv of [
      ['runs', 'show', run1],
      ['runs', 'show', run1, '--json'],
      ['runs', 'resume', run1],
      ['runs', 'list', '--json'],
    ]) {
      const { code, stdout, stderr } = await run([...argv, '--store', `sqlite:${db}`]);
      expect(code).toBe(0);
      expectInert(stdout);
      expectInert(stderr);
    }
    const show = await run(['runs', 'show', run1, '--store', `sqlite:${db}`]);
    expect(show.stdout).toContain('in flight  bash\uFFFD (call\uFFFD]0;pwned\uFFFD): started');
    expect(show.stdout.split('\n')[0]).toBe(
      `run r\uFFFD  (checkpoint cp\uFFFD[31m\uFFFD, session s\uFFFD]0;pwned\uFFFD\uFFFD[2J\uFFFD1, task t\uFFFD)`,
    );
  });

  it('cost prints stored session ids with no escape sequence', async () => {
    const all = await run(['cost', '--store', `sqlite:${db}`]);
    expect(all.code).toBe(0);
    expectInert(all.stdout);
    const one = await run(['cost', '--session', session, '--store', `sqlite:${db}`]);
    expect(one.code).toBe(0);
    expectInert(one.stdout);
    expect(one.stdout.split('\n')[0]).toBe('session s\uFFFD]0;pwned\uFFFD\uFFFD[2J\uFFFD1: $0.0100 over 1 calls in 1 runs');
    const missing = await run(['cost', '--session', `nope${OSC_TITLE}`, '--store', `sqlite:${db}`]);
    expect(missing.code).toBe(1);
    expectInert(missing.stderr);
  });
});

describe('watch', () => {
  it('shows tool-call ids, tool names and text with no bidi override or escape', async () => {
    const file = join(dir, 'bidi.jsonl');
    const lines = [
      { type: 'system', subtype: 'init', session_id: `s${RLO}` },
      {
        type: 'assistant',
        session_id: `s${RLO}`,
        message: {
          id: 'm1',
          role: 'assistant',
          content: [
            { type: 'text', text: `txt${RLO}evil${OSC_TITLE}` },
            { type: 'tool_use', id: `c${ESC}`, name: `Bash${RLO}`, input: {} },
          ],
        },
      },
      {
        type: 'user',
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `c${ESC}`, content: `out${RLO}${CSI_C1}2J` }] },
      },
      { type: 'result', subtype: 'success', result: `done${RLO}`, duration_ms: 10 },
    ];
    writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n'));
    const { code, stderr } = await run(['watch', '--plain', file]);
    expect(code).toBe(0);
    expectInert(stderr);
    expect(stderr).toContain('Bash\uFFFD');
  });
});
