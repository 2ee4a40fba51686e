import type { AuditEvent } from './audit-event.js';

/** The events without the hash chain fields the buses add, for comparing with what was published. */
export function unchain(events: readonly AuditEvent[]): AuditEvent[] {
  return events.map(({ prevHash: _p, hash: _h, ...rest }) => rest);
}

/** An event as the tests' `AuditReporter` (session `abc-123`, task `task-456`) publishes it, without the chain fields. */
export function reporterEvent(eventType: string, timestamp: number, detail: Record<string, unknown>): AuditEvent {
  return { eventType, category: 'agent', result: 'allow', sessionId: 'abc-123', taskId: 'task-456', timestamp, detail };
}
