export { toAgUiEvents } from './mapping/to-ag-ui-events.js';
export type { AgUiEventMapper, ToAgUiEventsOptions } from './mapping/to-ag-ui-events.js';
export type { ProgressActivityContent, ProgressActivityLimit, ProgressActivityStatus } from './mapping/progress-activity.js';
