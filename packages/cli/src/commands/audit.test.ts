// `headway audit verify` on real logs tampered with after they were written: a key added to a
// record, a `__proto__` member in `detail`, a broken line in the middle. Each must fail; a write torn by a crash must not.
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '@headway/protocol';
import { JsonlAuditBus, SqliteAuditBus, type AuditEvent } from '@headway/reporter-audit';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import type { CliIo } from '../io/cli-io.js';
import { main } from '../main.js';

const dir = mkdtempSync(join(tmpdir(), 'headway-audit-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function verify(path: string): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: { write: (chunk: string) => ((stdout += chunk), true) } as unknown as NodeJS.WritableStream,
    stderr: { write: (chunk: string) => ((stderr += chunk), true) },
    env: {},
    clock: new ManualClock(),
  };
  const code = await main(['audit', 'verify', path], io);
  return { code, stdout, stderr };
}

function ev(i: number): AuditEvent {
  return {
    eventType: 'agent.progress.tool_start',
    category: 'agent',
    result: 'allow',
    sessionId: 's',
    taskId: 't',
    timestamp: 1000 + i,
    detail: { tool: `tool-${i}` },
  };
}

let n = 0;
function jsonlLog(): { file: string; lines: string[] } {
  n += 1;
  const file = join(dir, `audit-${n}.jsonl`);
  const bus = new JsonlAuditBus(file);
  for (let i = 1; i <= 4; i += 1) bus.publish(ev(i));
  bus.close();
  return { file, lines: readFileSync(file, 'utf8').trimEnd().split('\n') };
}

describe('headway audit verify (JSONL)', () => {
  it('passes the log as written', async () => {
    const { file } = jsonlLog();
    expect(await verify(file)).toEqual({ code: 0, stdout: 'OK: 4 records in 1 session, hash chain whole\n', stderr: '' });
  });

  it.each([
    ['a top-level key', (line: string) => line.replace('{"eventType"', '{"approvedBy":"admin","eventType"')],
    ['a __proto__ member inside detail', (line: string) => line.replace('"detail":{', '"detail":{"__proto__":{"approved":true},')],
    ['a top-level __proto__ member', (line: string) => line.replace('{"eventType"', '{"__proto__":{"approved":true},"eventType"')],
  ])('fails after %s was added to a record', async (_what, tamper) => {
    const { file, lines } = jsonlLog();
    writeFileSync(file, `${lines.map((l, i) => (i === 2 ? tamper(l) : l)).join('\n')}\n`);
    expect(readFileSync(file, 'utf8')).not.toBe(`${lines.join('\n')}\n`);
    const { code, stdout } = await verify(file);
    expect(code).toBe(1);
    expect(stdout).toBe(`BROKEN: edited\n${file}:3: record of session "s" was edited: its content does not match its hash\n`);
  });

  it('fails with a line that is not JSON in the middle of the log', async () => {
    const { file, lines } = jsonlLog();
    writeFileSync(file, `${[...lines.slice(0, 2), 'approved by admin', ...lines.slice(2)].join('\n')}\n`);
    const { code, stdout } = await verify(file);
    expect(code).toBe(1);
    expect(stdout).toBe(`BROKEN: unreadable\n${file}:3: not JSON (Unexpected token 'a', "approved by admin" is not valid JSON)\n`);
  });

  it('fails when a whole record in the middle was cut short: the chain breaks at the next record', async () => {
    const { file, lines } = jsonlLog();
    writeFileSync(file, `${lines.map((l, i) => (i === 1 ? l.slice(0, 60) : l)).join('\n')}\n`);
    const { code, stdout } = await verify(file);
    expect(code).toBe(1);
    expect(stdout).toBe(
      `BROKEN: removed\n${file}:3: the record before this one (session "s") was removed or rewritten: its prevHash does not match the record at ${file}:1\n`,
    );
  });

  it('allows a torn write on the last line, with a warning', async () => {
    const { file } = jsonlLog();
    appendFileSync(file, '{"eventType":"agent.progress.tool_start","categ');
    expect(await verify(file)).toEqual({
      code: 0,
      stdout: 'OK: 4 records in 1 session, hash chain whole\n',
      stderr: `headway: ${file}:5: torn record (cut off mid-write), skipped\n`,
    });
  });

  it('verifies a log a crash tore and a reopened bus sealed and went on writing', async () => {
    const file = join(dir, 'crashed.jsonl');
    let bus = new JsonlAuditBus(file);
    for (let i = 1; i <= 3; i += 1) bus.publish(ev(i));
    bus.close();
    const whole = readFileSync(file, 'utf8');
    writeFileSync(file, whole.slice(0, whole.length - 25)); // the third write was cut off
    bus = new JsonlAuditBus(file);
    expect(bus.recoveredTornLine).toBe(true);
    bus.publish(ev(4));
    bus.close();
    expect(await verify(file)).toEqual({
      code: 0,
      stdout: 'OK: 3 records in 1 session, hash chain whole\n',
      stderr: `headway: ${file}:3: torn record (cut off mid-write), skipped\n`,
    });
  });
});

describe('headway audit verify (SQLite)', () => {
  it('fails after a __proto__ member was added to a stored detail', async () => {
    const file = join(dir, 'audit.db');
    const bus = new SqliteAuditBus(file);
    for (let i = 1; i <= 3; i += 1) bus.publish(ev(i));
    bus.close();
    expect((await verify(file)).code).toBe(0);
    const db = new Database(file);
    db.prepare('UPDATE audit_events SET detail = ? WHERE id = 2').run('{"__proto__":{"approved":true},"tool":"tool-2"}');
    db.close();
    const { code, stdout } = await verify(file);
    expect(code).toBe(1);
    expect(stdout).toBe(`BROKEN: edited\n${file}#2: record of session "s" was edited: its content does not match its hash\n`);
  });
});
