export { toAgUiEvents } from './mapping/to-ag-ui-events.js';
export type { AgUiEventMapper, ToAgUiEventsOptions } from './mapping/to-ag-ui-events.js';
export type { ProgressActivityContent, ProgressActivityLimit, ProgressActivityStatus } from './mapping/progress-activity.js';
export { AgUiError } from './ag-ui-error.js';
export type { AgUiErrorCode } from './ag-ui-error.js';
export { parseRunAgentInput } from './server/run-input.js';
export { createAgUiServer } from './server/ag-ui-server.js';
export type {
  AgUiConnection,
  AgUiErrorContext,
  AgUiErrorWhere,
  AgUiPlainAnswer,
  AgUiRequest,
  AgUiRunContext,
  AgUiRunFunction,
  AgUiServer,
  AgUiServerOptions,
  AgUiStreamAnswer,
} from './server/ag-ui-server.js';
export { createAgUiHandler } from './server/ag-ui-handler.js';
export type { AgUiHandler } from './server/ag-ui-handler.js';
export { createAgUiResponse, agUiServerFor } from './server/ag-ui-response.js';
