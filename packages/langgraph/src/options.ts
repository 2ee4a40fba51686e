import { createBridgeOptionsParser, hasMethod, type BridgeErrorContext, type BridgeOptions } from '@headway/runtime/bridge-kit';
import type { InternalErrorContext, OnInternalError } from '@headway/protocol';
import { z } from 'zod';
import { LangGraphError } from './langgraph-error.js';

export type { BridgeWarning, CostOf } from '@headway/runtime/bridge-kit';

/** A chat model the report is asked from: anything with LangChain's `invoke(messages)` (a `BaseChatModel`). */
export interface ReportModel {
  invoke(messages: [role: 'user', content: string][], options?: { signal?: AbortSignal }): Promise<{ content: unknown }>;
}

/**
 * Where a failure the bridge survived happened: `emit` (the hub threw), `costOf` (it threw or
 * returned a bad number) or `stream` (a part of the graph's stream could not be read, or none came).
 */
export interface LangGraphErrorContext extends InternalErrorContext {
  readonly where: BridgeErrorContext['where'] | 'stream';
}

/** Options of `withHeadway`: the options every headway bridge takes, plus LangGraph's own. */
export interface WithHeadwayOptions extends BridgeOptions {
  /** `agentName` of `run.started` (default: the graph's name). */
  agentName?: string;
  /** Supersteps before the graph stops (LangGraph's `recursionLimit`; default 20). */
  maxIterations?: number;
  /** Called with every failure the bridge survived (a throwing `costOf`, a hub error). */
  onInternalError?: OnInternalError<LangGraphErrorContext>;
  /** The state key that holds the graph's todo list / plan (`{ text, status, id? }[]`): its updates become `plan.updated`. */
  planKey?: string;
  /** Nodes whose runs are tool calls (default `['tools']`, the prebuilt `ToolNode`'s name). */
  toolNodes?: string[];
  /** Asked for the progress report at a limit (tools off: a plain chat model). Absent, the report is built from the tool-call log. */
  reportModel?: ReportModel;
}

/**
 * Validates {@link WithHeadwayOptions}.
 *
 * @throws {LangGraphError} `LANGGRAPH_INVALID_OPTIONS`, naming every offending field.
 */
export const parseOptions: (input: unknown) => WithHeadwayOptions = createBridgeOptionsParser<WithHeadwayOptions>(
  {
    planKey: z.string().min(1).max(200).optional(),
    toolNodes: z.array(z.string().min(1).max(200)).max(100).optional(),
    reportModel: hasMethod<ReportModel>('invoke', 'must have invoke(messages)').optional(),
  },
  (message, details) => new LangGraphError('LANGGRAPH_INVALID_OPTIONS', message, details),
);
