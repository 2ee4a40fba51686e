import fc from 'fast-check';
import { HeadwayError } from '@headway/protocol';
import type { AuditEvent, AuditQuery } from '@headway/reporter-audit';
import { describe, expect, it } from 'vitest';
import { PostgresAuditBus } from './postgres-audit-bus.js';
import { freshPool, usePostgres } from './testing/postgres-fixture.test-util.js';

const server = await usePostgres();

// Values no caller should send and some will: throwing getters, revoked proxies, deep nesting,
// huge strings, control characters.
function make(kind: 'getter' | 'revoked' | 'deep'): unknown {
  if (kind === 'getter') {
    return Object.defineProperty({}, 'eventType', {
      enumerable: true,
      get: () => {
        throw new Error('getter');
      },
    });
  }
  if (kind === 'revoked') {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    return proxy;
  }
  return JSON.parse(`${'['.repeat(5_000)}${']'.repeat(5_000)}`) as unknown;
}

// Kinds, built inside the property: fast-check itself would trip over a revoked proxy.
const hostile = fc.oneof(
  fc.anything({ maxDepth: 3 }).map((v) => () => v),
  fc.constantFrom('getter' as const, 'revoked' as const, 'deep' as const).map((k) => () => make(k)),
  fc.string({ unit: 'binary', maxLength: 50 }).map((s) => () => ({
    eventType: s,
    category: 'agent',
    result: 'allow',
    sessionId: `\u0000${s}`,
    taskId: 'x'.repeat(100_000),
    timestamp: 1,
    detail: { s },
  })),
);

if (server !== undefined) {
  const pgServer = server;
  describe('PostgresAuditBus (hostile input)', () => {
    it('rejects hostile events and queries with typed errors, never a crash or a hang', async () => {
      const { pool } = await freshPool(pgServer);
      const bus = new PostgresAuditBus(pool);
      await fc.assert(
        fc.asyncProperty(hostile, hostile, async (event, q) => {
          for (const attempt of [() => bus.publish(event() as AuditEvent), () => bus.query(q() as AuditQuery)]) {
            try {
              await attempt();
            } catch (error) {
              expect(HeadwayError.isInstance(error), String(error)).toBe(true);
            }
          }
        }),
        { numRuns: 60, interruptAfterTimeLimit: 20_000 },
      );
      await pool.end();
    }, 60_000);
  });
}
