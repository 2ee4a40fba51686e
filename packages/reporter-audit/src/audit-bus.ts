import type { AuditEvent } from './audit-event.js';

/**
 * Where an {@link AuditReporter} sends its events: any object with `publish`. A bus may be
 * sync or async; the reporter never lets its errors or its slowness reach the caller.
 *
 * @example
 * ```ts
 * const bus: AuditBus = { publish: (event) => fetch(url, { method: 'POST', body: JSON.stringify(event) }).then(() => undefined) };
 * ```
 */
export interface AuditBus {
  publish(event: AuditEvent): void | PromiseLike<void>;
}
