import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HeadwayError, ManualClock } from '@headway/protocol';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import type { AuditEvent } from './audit-event.js';
import { AuditLogError } from './audit-log-error.js';
import { normalizeAuditQuery } from './audit-query.js';
import { AuditReporter } from './audit-reporter.js';
import { auditQuerySql, SqliteAuditBus } from './sqlite-audit-bus.js';
import { reporterEvent, unchain } from './chain.test-util.js';

const root = mkdtempSync(join(tmpdir(), 'headway-audit-sqlite-'));
let n = 0;
const tempDb = (): string => join(root, `run-${(n += 1)}`, 'audit.db');
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

function ev(
  eventType: string,
  timestamp: number,
  sessionId = 's1',
  taskId = 't1',
  detail: Record<string, unknown> = { at: timestamp },
): AuditEvent {
  return { eventType, category: 'agent', result: 'allow', sessionId, taskId, timestamp, detail };
}

describe('SqliteAuditBus', () => {
  it('stores what a reporter publishes in a WAL database file and reads it back', () => {
    const file = tempDb();
    const bus = new SqliteAuditBus(file);
    const reporter = new AuditReporter({
      sessionId: 'abc-123',
      taskId: 'task-456',
      bus,
      clock: new ManualClock({ start: 1_700_000_000_000 }),
    });
    reporter.onStart('Summarize the README file');
    reporter.onToolDone('file_read', 'ok');
    reporter.onIteration(0, 10);
    expect(reporter.failures).toBe(0);
    expect(unchain(bus.query({ sessionId: 'abc-123' }))).toEqual([
      reporterEvent('agent.progress.start', 1_700_000_000_000, { task: 'Summarize the README file' }),
      reporterEvent('agent.progress.tool_done', 1_700_000_000_000, { tool: 'file_read', summary: 'ok' }),
      reporterEvent('agent.progress.iteration', 1_700_000_000_000, { iteration: 0, max: 10 }),
    ]);
    expect(existsSync(`${file}-wal`)).toBe(true);
    bus.close();
    bus.close();

    const raw = new Database(file, { readonly: true });
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(raw.prepare('SELECT count(*) FROM audit_events').pluck().get()).toBe(3);
    raw.close();

    const reopened = new SqliteAuditBus(file);
    expect(reopened.query({ eventType: 'agent.progress.iteration' }).map((e) => e.detail)).toEqual([{ iteration: 0, max: 10 }]);
    reopened.close();
  });

  it('serves each filter from an index', () => {
    const file = tempDb();
    new SqliteAuditBus(file).close();
    const db = new Database(file, { readonly: true });
    const plan = (query: Parameters<typeof normalizeAuditQuery>[0]): string => {
      const { sql, params } = auditQuerySql(normalizeAuditQuery(query));
      return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail).join(' | ');
    };
    expect(plan({ sessionId: 's' })).toMatch(/USING INDEX audit_events_session/);
    expect(plan({ taskId: 't' })).toMatch(/USING INDEX audit_events_task/);
    expect(plan({ eventType: 'x' })).toMatch(/USING INDEX audit_events_type/);
    expect(plan({ since: 5 })).toMatch(/USING INDEX audit_events_time/);
    db.close();
  });

  it('reports a row that is not an audit event with file#id', () => {
    const file = tempDb();
    const bus = new SqliteAuditBus(file);
    bus.publish(ev('a', 1));
    const db = new Database(file);
    db.prepare(
      "INSERT INTO audit_events (event_type, category, result, session_id, task_id, timestamp, detail) VALUES ('b', 'agent', 'allow', 's1', 't1', 2, '{oops')",
    ).run();
    db.prepare(
      "INSERT INTO audit_events (event_type, category, result, session_id, task_id, timestamp, detail) VALUES ('c', 'agent', 'deny', 's2', 't1', 3, '{}')",
    ).run();
    db.close();
    expect(() => bus.query({ sessionId: 's1' })).toThrow(`${file}#2: detail is not JSON`);
    try {
      bus.query({ sessionId: 's2' });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(AuditLogError);
      expect((e as AuditLogError).location).toBe(`${file}#3`);
      expect((e as AuditLogError).message).toBe(`${file}#3: not an audit event: result: invalid input: expected "allow"`);
    }
    bus.close();
  });

  it('refuses invalid events, use after close, and a newer schema', () => {
    const file = tempDb();
    const bus = new SqliteAuditBus(file, { synchronous: 'full', timeoutMs: 50 });
    expect(() => {
      bus.publish({ ...ev('a', 1), detail: [] } as unknown as AuditEvent);
    }).toThrow(/^Invalid audit event: detail: /);
    bus.close();
    expect(() => {
      bus.publish(ev('a', 1));
    }).toThrow(/is closed/);
    expect(() => bus.query()).toThrow(/is closed/);
    const reporter = new AuditReporter({ sessionId: 's', taskId: 't', bus });
    reporter.onStart('x');
    expect(reporter.failures).toBe(1);

    const db = new Database(file);
    db.pragma('user_version = 99');
    db.close();
    try {
      new SqliteAuditBus(file);
      expect.unreachable();
    } catch (e) {
      expect(HeadwayError.isInstance(e, 'AUDIT_INVALID_OPTIONS')).toBe(true);
      expect((e as Error).message).toMatch(/schema version 99/);
    }
  });

  it('shares one file between connections: each sees the other’s events', () => {
    const file = tempDb();
    const a = new SqliteAuditBus(file);
    const b = new SqliteAuditBus(file);
    for (let i = 0; i < 50; i += 1) {
      a.publish(ev('a', i, 'sa'));
      b.publish(ev('b', i, 'sb'));
    }
    expect(a.query({ sessionId: 'sb' })).toHaveLength(50);
    expect(b.query({ order: 'desc', limit: 2 }).map((e) => [e.eventType, e.timestamp])).toEqual([
      ['b', 49],
      ['a', 49],
    ]);
    a.close();
    b.close();
  });

  it('works in memory too', () => {
    const bus = new SqliteAuditBus(':memory:');
    bus.publish(ev('a', 1));
    expect(unchain(bus.query())).toEqual([ev('a', 1)]);
    bus.close();
  });
});
