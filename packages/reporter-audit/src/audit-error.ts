import { HeadwayError } from '@headway/protocol';

/** Codes an {@link AuditError} can carry. */
export type AuditErrorCode =
  /** An option of a reporter or bus is invalid, or an injected `now()` returned something that is not a time. */
  | 'AUDIT_INVALID_OPTIONS'
  /** An event given to a bus is not a valid audit event; `issues` says what and where. */
  | 'AUDIT_INVALID_EVENT'
  /** An audit query is not valid; `issues` says what and where. */
  | 'AUDIT_INVALID_QUERY'
  /** The bus was used after `close()`. */
  | 'AUDIT_BUS_CLOSED'
  /** One or more subscribers of a bus threw; `cause` holds what they threw. */
  | 'AUDIT_SUBSCRIBER_FAILED'
  /** The reporter's queue to a slow bus was full, so its oldest events were dropped. */
  | 'AUDIT_EVENTS_DROPPED';

/**
 * Thrown for invalid options, events or queries, and for use of a closed bus. Inside an
 * {@link AuditReporter} these never reach the caller: they are counted and passed to
 * `onInternalError`.
 */
export class AuditError extends HeadwayError<AuditErrorCode> {
  override readonly name: string = 'AuditError';
}
