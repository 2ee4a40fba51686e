export { DASHBOARD_CSP, createDashboardHandler } from './dashboard-server.js';
export type { DashboardErrorContext, DashboardHandlerOptions } from './dashboard-server.js';
export { dashboardRun, readDashboardRuns } from './dashboard-runs.js';
export type { DashboardRun, ReadDashboardRunsOptions } from './dashboard-runs.js';
export { dashboardRunState } from './run-state.js';
export type { DashboardRunState } from './run-state.js';
export { DashboardError } from './dashboard-error.js';
export type { DashboardErrorCode } from './dashboard-error.js';
