export { DASHBOARD_CSP, createDashboardHandler } from './dashboard-server.js';
export type { DashboardErrorContext, DashboardHandlerOptions } from './dashboard-server.js';
export { dashboardRun, readDashboardRuns } from './dashboard-runs.js';
export type { ReadDashboardRunsOptions } from './dashboard-runs.js';
export { readRunDetail } from './dashboard-run-detail.js';
export type { ReadRunDetailOptions } from './dashboard-run-detail.js';
export { MAX_VIEW_STEPS, MAX_VIEW_TEXT, dashboardRunView } from './run-view.js';
export type {
  DashboardAction,
  DashboardModelCost,
  DashboardPlan,
  DashboardRun,
  DashboardRunDetail,
  DashboardRunView,
  DashboardStep,
  DashboardToolCall,
} from './dashboard-run-types.js';
export { dashboardRunState } from './run-state.js';
export type { DashboardRunState } from './run-state.js';
export { PAGE_CSP, createRequestGuard, withPageToken } from './request-guard.js';
export type { RequestGuard, RequestGuardOptions } from './request-guard.js';
export { DashboardError } from './dashboard-error.js';
export type { DashboardErrorCode } from './dashboard-error.js';
export type { DashboardActionResult } from './run-actions.js';
export { CANCELLED_FROM_DASHBOARD, createRunRequestWorker } from './run-request-worker.js';
export type { RunRequestWorker, RunRequestWorkerErrorContext, RunRequestWorkerOptions } from './run-request-worker.js';
