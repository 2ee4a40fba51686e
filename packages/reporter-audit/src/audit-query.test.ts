import { describe, expect, it } from 'vitest';
import { normalizeAuditQuery, type AuditQuery } from './audit-query.js';

describe('normalizeAuditQuery', () => {
  it('defaults the order and keeps the fields it was given', () => {
    expect(normalizeAuditQuery({ sessionId: 's1', limit: 5 })).toEqual({ sessionId: 's1', limit: 5, order: 'asc' });
    expect(normalizeAuditQuery({ since: new Date(1000) })).toEqual({ since: 1000, order: 'asc' });
  });

  it('names a typo and a bad limit as AUDIT_INVALID_QUERY', () => {
    expect(() => normalizeAuditQuery({ sesionId: 's1' } as AuditQuery)).toThrow(/^Invalid audit query: .*sesionId/);
    expect(() => normalizeAuditQuery({ limit: 0 })).toThrow(expect.objectContaining({ code: 'AUDIT_INVALID_QUERY' }));
  });

  it('turns a query that throws when read into AUDIT_INVALID_QUERY, not a crash', () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(() => normalizeAuditQuery(proxy)).toThrow(
      expect.objectContaining({ code: 'AUDIT_INVALID_QUERY', message: 'Invalid audit query: input could not be read' }),
    );
    const getter = Object.defineProperty({}, 'sessionId', {
      enumerable: true,
      get: () => {
        throw new Error('boom');
      },
    }) as AuditQuery;
    expect(() => normalizeAuditQuery(getter)).toThrow(expect.objectContaining({ code: 'AUDIT_INVALID_QUERY' }));
  });
});
