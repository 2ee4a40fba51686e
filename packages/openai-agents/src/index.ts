export { withHeadway } from './with-headway.js';
export type { HeadwayAgentsResult, HeadwayAgentsRun, HeadwayRunOptions } from './with-headway.js';
export type { HeadwayOutcome, HeadwayRunResult } from './run-core.js';
export type { BridgeWarning, CostOf, OpenAIAgentsErrorContext, WithHeadwayOptions } from './options.js';
export { OpenAIAgentsError } from './openai-agents-error.js';
export type { OpenAIAgentsErrorCode } from './openai-agents-error.js';
