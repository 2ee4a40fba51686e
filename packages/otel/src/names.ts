// Every name this package writes: GenAI semantic-convention names from
// @opentelemetry/semantic-conventions (the incubating entry, where GenAI lives), and headway's
// own `headway.*` names for what the conventions have no name for.
import {
  ATTR_GEN_AI_AGENT_NAME,
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_GEN_AI_INPUT_MESSAGES,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_OUTPUT_MESSAGES,
  ATTR_GEN_AI_PROVIDER_NAME,
  ATTR_GEN_AI_REQUEST_MODEL,
  ATTR_GEN_AI_RESPONSE_FINISH_REASONS,
  ATTR_GEN_AI_TOKEN_TYPE,
  ATTR_GEN_AI_TOOL_CALL_ARGUMENTS,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_CALL_RESULT,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_GEN_AI_TOOL_TYPE,
  ATTR_GEN_AI_USAGE_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_OUTPUT_TOKENS,
  GEN_AI_OPERATION_NAME_VALUE_CHAT,
  GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
  GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT,
  GEN_AI_TOKEN_TYPE_VALUE_INPUT,
  GEN_AI_TOKEN_TYPE_VALUE_OUTPUT,
  METRIC_GEN_AI_CLIENT_OPERATION_DURATION,
  METRIC_GEN_AI_CLIENT_TOKEN_USAGE,
} from '@opentelemetry/semantic-conventions/incubating';
import { ATTR_ERROR_TYPE, ERROR_TYPE_VALUE_OTHER } from '@opentelemetry/semantic-conventions';

type Names<K extends string> = Readonly<Record<K, string>>;

export const GEN_AI: Names<
  | 'operation'
  | 'agentName'
  | 'conversationId'
  | 'providerName'
  | 'requestModel'
  | 'finishReasons'
  | 'inputTokens'
  | 'outputTokens'
  | 'tokenType'
  | 'toolName'
  | 'toolCallId'
  | 'toolType'
  | 'toolArguments'
  | 'toolResult'
  | 'inputMessages'
  | 'outputMessages'
  | 'errorType'
> = {
  operation: ATTR_GEN_AI_OPERATION_NAME,
  agentName: ATTR_GEN_AI_AGENT_NAME,
  conversationId: ATTR_GEN_AI_CONVERSATION_ID,
  providerName: ATTR_GEN_AI_PROVIDER_NAME,
  requestModel: ATTR_GEN_AI_REQUEST_MODEL,
  finishReasons: ATTR_GEN_AI_RESPONSE_FINISH_REASONS,
  inputTokens: ATTR_GEN_AI_USAGE_INPUT_TOKENS,
  outputTokens: ATTR_GEN_AI_USAGE_OUTPUT_TOKENS,
  tokenType: ATTR_GEN_AI_TOKEN_TYPE,
  toolName: ATTR_GEN_AI_TOOL_NAME,
  toolCallId: ATTR_GEN_AI_TOOL_CALL_ID,
  toolType: ATTR_GEN_AI_TOOL_TYPE,
  toolArguments: ATTR_GEN_AI_TOOL_CALL_ARGUMENTS,
  toolResult: ATTR_GEN_AI_TOOL_CALL_RESULT,
  inputMessages: ATTR_GEN_AI_INPUT_MESSAGES,
  outputMessages: ATTR_GEN_AI_OUTPUT_MESSAGES,
  errorType: ATTR_ERROR_TYPE,
};

export const OPERATION: Names<'invokeAgent' | 'chat' | 'executeTool'> = {
  invokeAgent: GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT,
  chat: GEN_AI_OPERATION_NAME_VALUE_CHAT,
  executeTool: GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
};

export const TOKEN_TYPE: Names<'input' | 'output'> = { input: GEN_AI_TOKEN_TYPE_VALUE_INPUT, output: GEN_AI_TOKEN_TYPE_VALUE_OUTPUT };
export const ERROR_TYPE_OTHER: string = ERROR_TYPE_VALUE_OTHER;

/** headway's own attribute names (the GenAI conventions have none for these). */
export const HEADWAY: Names<
  | 'runId'
  | 'outcome'
  | 'stopReason'
  | 'limit'
  | 'resumed'
  | 'firstSeq'
  | 'iterationsUsed'
  | 'iterationsMax'
  | 'timeUsedMs'
  | 'timeBudgetMs'
  | 'costUsedUsd'
  | 'costMaxUsd'
  | 'costUnpricedCalls'
  | 'percent'
  | 'iteration'
  | 'step'
  | 'costUsd'
  | 'toolOutcome'
> = {
  runId: 'headway.run.id',
  outcome: 'headway.run.outcome',
  stopReason: 'headway.run.stop_reason',
  limit: 'headway.run.limit',
  resumed: 'headway.run.resumed',
  firstSeq: 'headway.run.first_seq',
  iterationsUsed: 'headway.iterations.used',
  iterationsMax: 'headway.iterations.max',
  timeUsedMs: 'headway.time.used_ms',
  timeBudgetMs: 'headway.time.budget_ms',
  costUsedUsd: 'headway.cost.used_usd',
  costMaxUsd: 'headway.cost.max_usd',
  costUnpricedCalls: 'headway.cost.unpriced_calls',
  percent: 'headway.progress.percent',
  iteration: 'headway.iteration',
  step: 'headway.step',
  costUsd: 'headway.cost.usd',
  toolOutcome: 'headway.tool.outcome',
};

/** Span event names, one per headway event type that becomes a span event. */
export const SPAN_EVENT: Names<
  | 'progress'
  | 'limitApproaching'
  | 'limitReached'
  | 'windDown'
  | 'timeoutExtended'
  | 'checkpoint'
  | 'report'
  | 'toolFlagged'
  | 'strategyRotated'
  | 'stallDetected'
  | 'stallCleared'
  | 'thinking'
  | 'intermediateResult'
> = {
  progress: 'headway.progress',
  limitApproaching: 'headway.limit.approaching',
  limitReached: 'headway.limit.reached',
  windDown: 'headway.wind_down.started',
  timeoutExtended: 'headway.timeout.extended',
  checkpoint: 'headway.checkpoint.saved',
  report: 'headway.report.generated',
  toolFlagged: 'headway.tool.flagged',
  strategyRotated: 'headway.strategy.rotated',
  stallDetected: 'headway.stall.detected',
  stallCleared: 'headway.stall.cleared',
  thinking: 'headway.thinking',
  intermediateResult: 'headway.intermediate_result',
};

/**
 * Metric names: the GenAI client metrics from the package, the agent and tool metrics of the
 * current GenAI conventions (not yet exported by the package), and headway's own.
 */
export const METRIC: Names<'tokenUsage' | 'operationDuration' | 'agentDuration' | 'toolDuration' | 'runIterations' | 'runs'> = {
  tokenUsage: METRIC_GEN_AI_CLIENT_TOKEN_USAGE,
  operationDuration: METRIC_GEN_AI_CLIENT_OPERATION_DURATION,
  agentDuration: 'gen_ai.invoke_agent.duration',
  toolDuration: 'gen_ai.execute_tool.duration',
  runIterations: 'headway.run.iterations',
  runs: 'headway.runs',
};
