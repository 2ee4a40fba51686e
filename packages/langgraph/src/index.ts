export { withHeadway } from './with-headway.js';
export type { HeadwayGraphResult, HeadwayGraphRun, StreamableGraph } from './with-headway.js';
export type { HeadwayOutcome, HeadwayRunResult } from './run-core.js';
export type { BridgeWarning, CostOf, LangGraphErrorContext, ReportModel, WithHeadwayOptions } from './options.js';
export { LangGraphError } from './langgraph-error.js';
export type { LangGraphErrorCode } from './langgraph-error.js';
