import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { AUDIT_GENESIS_HASH, auditRecordHash, canonicalJson, verifyAuditChain, type LocatedAuditEvent } from './audit-chain.js';
import type { AuditEvent } from './audit-event.js';
import { JsonlAuditBus } from './jsonl-audit-bus.js';
import { MemoryAuditBus } from './memory-audit-bus.js';
import { readAuditLog } from './read-audit-log.js';
import { readSqliteAuditRecords, SqliteAuditBus } from './sqlite-audit-bus.js';

const root = mkdtempSync(join(tmpdir(), 'headway-audit-chain-'));
let n = 0;
const tempFile = (ext: string): string => join(root, `log-${(n += 1)}.${ext}`);
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

function ev(i: number, sessionId = 's1'): AuditEvent {
  return {
    eventType: 'agent.progress.update',
    category: 'agent',
    result: 'allow',
    sessionId,
    taskId: 't1',
    timestamp: 1000 + i,
    detail: { pct: i },
  };
}

async function jsonlRecords(file: string): Promise<LocatedAuditEvent[]> {
  const { events, lineNumbers } = await readAuditLog(file);
  return events.map((event, i) => ({ event, location: `${file}:${lineNumbers[i] ?? 0}` }));
}

/** Writes six records, alternating two sessions, to a fresh JSONL log; returns its lines. */
function writeJsonl(): { file: string; lines: string[] } {
  const file = tempFile('jsonl');
  const bus = new JsonlAuditBus(file);
  for (let i = 1; i <= 6; i += 1) bus.publish(ev(i, i % 2 === 0 ? 's2' : 's1'));
  bus.close();
  return { file, lines: readFileSync(file, 'utf8').trimEnd().split('\n') };
}

describe('canonicalJson', () => {
  it('sorts keys, drops undefined members and writes no whitespace', () => {
    expect(canonicalJson({ b: [1, 'x', null], a: { d: undefined, c: 1.5 } })).toBe('{"a":{"c":1.5},"b":[1,"x",null]}');
  });
});

describe('the hash chain', () => {
  it('links each record to the previous one of its session, in memory', () => {
    const bus = new MemoryAuditBus();
    bus.publish(ev(1));
    bus.publish(ev(2, 's2'));
    bus.publish(ev(3));
    const [a, b, c] = bus.events;
    expect(a?.prevHash).toBe(AUDIT_GENESIS_HASH);
    expect(b?.prevHash).toBe(AUDIT_GENESIS_HASH);
    expect(c?.prevHash).toBe(a?.hash);
    expect(a && auditRecordHash(a)).toBe(a?.hash);
    expect(verifyAuditChain(bus.events.map((event, i) => ({ event, location: `memory#${i}` })))).toEqual({
      ok: true,
      records: 3,
      sessions: 2,
    });
  });

  it('continues the chain when a JSONL log is reopened', async () => {
    const file = tempFile('jsonl');
    const first = new JsonlAuditBus(file);
    first.publish(ev(1));
    first.close();
    const second = new JsonlAuditBus(file);
    second.publish(ev(2));
    second.close();
    const records = await jsonlRecords(file);
    expect(records[1]?.event.prevHash).toBe(records[0]?.event.hash);
    expect(verifyAuditChain(records).ok).toBe(true);
  });

  it('names the edited, removed, reordered and inserted line of a JSONL log', async () => {
    const cases: [string, (lines: string[]) => string[], string][] = [
      ['edited', (l) => l.map((x, i) => (i === 2 ? x.replace('"pct":3', '"pct":30') : x)), ':3: record of session "s1" was edited'],
      ['removed', (l) => l.filter((_, i) => i !== 2), ':4: the record before this one (session "s1") was removed'],
      ['reordered', (l) => [l[0], l[1], l[4], l[3], l[2], l[5]] as string[], ':3: record of session "s1" was moved'],
      ['inserted', (l) => [...l.slice(0, 3), l[0], ...l.slice(3)] as string[], ':4: record of session "s1" was inserted'],
    ];
    for (const [kind, tamper, message] of cases) {
      const { file, lines } = writeJsonl();
      expect(verifyAuditChain(await jsonlRecords(file)).ok).toBe(true);
      writeFileSync(file, `${tamper(lines).join('\n')}\n`);
      const result = verifyAuditChain(await jsonlRecords(file));
      expect(result.break?.kind, kind).toBe(kind);
      expect(result.break?.message).toContain(`${file}${message}`);
    }
  });

  it('names an inserted record whose prevHash was forged to fit', async () => {
    const { file, lines } = writeJsonl();
    const first = JSON.parse(lines[0] ?? '') as AuditEvent;
    const forged: AuditEvent = { ...ev(9), prevHash: first.hash ?? '' };
    forged.hash = auditRecordHash(forged);
    writeFileSync(file, `${[lines[0], JSON.stringify(forged), ...lines.slice(1)].join('\n')}\n`);
    const result = verifyAuditChain(await jsonlRecords(file));
    expect(result.break).toMatchObject({ kind: 'inserted', location: `${file}:2` });
  });

  it('names the edited, removed, reordered and inserted row of a SQLite log', () => {
    const cases: [string, (db: Database.Database) => void, string][] = [
      ['edited', (db) => db.exec(`UPDATE audit_events SET detail = '{"pct":30}' WHERE id = 3`), '#3'],
      ['removed', (db) => db.exec('DELETE FROM audit_events WHERE id = 3'), '#5'],
      [
        'reordered',
        (db) =>
          db.exec(
            'UPDATE audit_events SET id = 99 WHERE id = 3; UPDATE audit_events SET id = 3 WHERE id = 5; UPDATE audit_events SET id = 5 WHERE id = 99',
          ),
        '#3',
      ],
      [
        'inserted',
        (db) =>
          db.exec(
            'UPDATE audit_events SET id = id + 100 WHERE id > 3; UPDATE audit_events SET id = id - 99 WHERE id > 100; ' +
              'INSERT INTO audit_events SELECT 4, event_type, category, result, session_id, task_id, timestamp, detail, prev_hash, hash FROM audit_events WHERE id = 1',
          ),
        '#4',
      ],
    ];
    for (const [kind, tamper, at] of cases) {
      const file = tempFile('db');
      const bus = new SqliteAuditBus(file);
      for (let i = 1; i <= 6; i += 1) bus.publish(ev(i, i % 2 === 0 ? 's2' : 's1'));
      bus.close();
      expect(verifyAuditChain(readSqliteAuditRecords(file)).ok).toBe(true);
      const db = new Database(file);
      tamper(db);
      db.close();
      const result = verifyAuditChain(readSqliteAuditRecords(file));
      expect(result.break?.kind, kind).toBe(kind);
      expect(result.break?.location, kind).toBe(`${file}${at}`);
    }
  });

  it('calls records written before the chain existed unchained', () => {
    expect(verifyAuditChain([{ event: ev(1), location: 'old.jsonl:1' }]).break).toMatchObject({
      kind: 'unchained',
      location: 'old.jsonl:1',
    });
  });
});

describe('the hash covers the record as stored', () => {
  it('breaks when a key the schema does not know, or a __proto__ member, is added to a stored record', async () => {
    const file = tempFile('jsonl');
    const bus = new JsonlAuditBus(file);
    for (let i = 1; i <= 3; i += 1) bus.publish(ev(i));
    bus.close();
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    const tampers = [
      (l: string) => l.replace('{', '{"approvedBy":"admin",'),
      (l: string) => l.replace('"detail":{', '"detail":{"__proto__":{"admin":true},'),
      (l: string) => l.replace('{', '{"__proto__":{"admin":true},'),
    ];
    for (const tamper of tampers) {
      writeFileSync(file, `${lines.map((l, i) => (i === 1 ? tamper(l) : l)).join('\n')}\n`);
      const { events, lineNumbers, problems } = await readAuditLog(file);
      expect(problems).toEqual([]);
      const result = verifyAuditChain(events.map((event, i) => ({ event, location: `${file}:${lineNumbers[i] ?? 0}` })));
      expect(result.break).toMatchObject({ kind: 'edited', location: `${file}:2` });
    }
    // The log as written still verifies: the hash of an untouched record is what it always was.
    writeFileSync(file, `${lines.join('\n')}\n`);
    const { events } = await readAuditLog(file);
    expect(verifyAuditChain(events.map((event, i) => ({ event, location: String(i) }))).ok).toBe(true);
  });

  it('calls a record nested too deep to hash edited, without throwing', () => {
    let detail: Record<string, unknown> = {};
    for (let i = 0; i < 100_000; i += 1) detail = { d: detail };
    const record = { ...ev(1), detail, prevHash: AUDIT_GENESIS_HASH, hash: 'a'.repeat(64) };
    expect(verifyAuditChain([{ event: record, location: 'x' }]).break?.kind).toBe('edited');
  });
});
