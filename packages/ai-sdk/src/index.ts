export { withHeadway } from './with-headway.js';
export type {
  HeadwayOutcome,
  HeadwayRun,
  HeadwayRunResult,
  HeadwaySettings,
  NudgeStepSettings,
  PrepareStepInput,
  ReportStepSettings,
  ToolCallFacts,
  ToolCallFinishFacts,
} from './with-headway.js';
export type { AiSdkErrorContext, CostOf, WithHeadwayOptions } from './options.js';
export type { StepFacts } from './step-facts.js';
export type { StallAction, StallInfo, StallPolicy } from './stall-watch.js';
export { AiSdkError } from './ai-sdk-error.js';
export { SUPPORTED_AI_RANGE } from './ai-version.js';
export type { AiSdkErrorCode } from './ai-sdk-error.js';
export { createUIMessageStreamSink } from './ui-message-stream.js';
export type { DataChunkWriter, HeadwayDataChunk, HeadwayDataTypes, ProgressData, UIMessageStreamSinkOptions } from './ui-message-stream.js';
