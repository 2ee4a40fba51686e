import { HeadwayError, systemClock } from '@headway/protocol';
import { AuditReporter, type AuditEvent } from '@headway/reporter-audit';
import { describe, expect, it } from 'vitest';
import { PostgresAuditBus } from './postgres-audit-bus.js';
import { freshPool, usePostgres } from './testing/postgres-fixture.test-util.js';

const server = await usePostgres();

if (server !== undefined) {
  const pgServer = server;
  describe('PostgresAuditBus', () => {
    it('stores what an AuditReporter publishes and answers queries by session, type and time', async () => {
      const { pool } = await freshPool(pgServer);
      const bus = new PostgresAuditBus(pool);
      let t = 1_000;
      const reporter = new AuditReporter({ sessionId: 's1', taskId: 't1', bus, clock: { ...systemClock, now: () => (t += 10) } });
      reporter.onStart('Summarize the README');
      reporter.onToolStart('file_read');
      reporter.onComplete('done');
      await reporter.flush();
      const all = await bus.query({ sessionId: 's1' });
      expect(all.map((e) => e.eventType)).toEqual(['agent.progress.start', 'agent.progress.tool_start', 'agent.progress.complete']);
      expect(all.every((e) => e.sessionId === 's1' && e.taskId === 't1')).toBe(true);
      expect((await bus.query({ eventType: 'agent.progress.start' })).map((e) => e.detail.task)).toEqual(['Summarize the README']);
      expect((await bus.query({ order: 'desc', limit: 1 })).map((e) => e.eventType)).toEqual(['agent.progress.complete']);
      expect(await bus.query({ sessionId: 'other' })).toEqual([]);
      await pool.end();
    });

    it('refuses an invalid event or query, and names a hand-edited row', async () => {
      const { pool } = await freshPool(pgServer);
      const bus = new PostgresAuditBus(pool);
      await expect(bus.publish({ eventType: 'x', sessionId: 's' } as unknown as AuditEvent)).rejects.toSatisfy((e) =>
        HeadwayError.isInstance(e, 'AUDIT_INVALID_EVENT'),
      );
      await expect(bus.query({ limit: -1 })).rejects.toSatisfy((e) => HeadwayError.isInstance(e, 'AUDIT_INVALID_QUERY'));
      await bus.publish({
        eventType: 'agent.progress.start',
        category: 'agent',
        result: 'allow',
        sessionId: 's',
        taskId: 't',
        timestamp: 5,
        detail: { task: 'x' },
      });
      await pool.query('UPDATE headway_audit_events SET body = \'{"eventType":3}\'');
      await expect(bus.query()).rejects.toThrow(new RegExp(`^127\\.0\\.0\\.1:${pgServer.port}/t_\\d+_\\d+#1: not an audit event: `));
      await pool.end();
    });
  });
}
