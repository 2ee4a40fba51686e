import { HeadwayError } from '@headway/protocol';

/** Codes a {@link DashboardError} can carry. */
export type DashboardErrorCode =
  /** An option given to a `create*` function of this package is invalid; the message names it. */
  | 'DASHBOARD_INVALID_OPTIONS'
  /** A request's query or body did not validate; `issues` say what and where (HTTP 400). */
  | 'DASHBOARD_BAD_REQUEST'
  /** An action was asked for without the token (HTTP 401). */
  | 'DASHBOARD_UNAUTHORIZED'
  /** An action came from another origin (HTTP 403). */
  | 'DASHBOARD_FORBIDDEN'
  /** No run, page or action of that name (HTTP 404). */
  | 'DASHBOARD_NOT_FOUND'
  /** The action does not apply to the run in its state (HTTP 409). */
  | 'DASHBOARD_CONFLICT'
  /** The action needs a request channel the store does not keep (HTTP 503). */
  | 'DASHBOARD_UNAVAILABLE';

/** Thrown by `@headway/dashboard`; the message says what is wrong and where. */
export class DashboardError extends HeadwayError<DashboardErrorCode> {
  override readonly name: string = 'DashboardError';
}
