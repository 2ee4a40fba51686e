import type { AuditEvent } from './audit-event.js';

/** The events without the hash chain fields the buses add, for comparing with what was published. */
export function unchain(events: readonly AuditEvent[]): AuditEvent[] {
  return events.map(({ prevHash: _p, hash: _h, ...rest }) => rest);
}
