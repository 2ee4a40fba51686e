import { createBridgeOptionsParser, type BridgeErrorContext, type BridgeOptions } from '@headway/runtime/bridge-kit';
import type { OnInternalError } from '@headway/protocol';
import { z } from 'zod';
import { OpenAIAgentsError } from './openai-agents-error.js';

export type { BridgeWarning, CostOf } from '@headway/runtime/bridge-kit';

/** Where a failure the bridge survived happened: `emit` (the hub threw) or `costOf` (it threw or returned a bad number). */
export type OpenAIAgentsErrorContext = BridgeErrorContext;

/** Options of `withHeadway`: the options every headway bridge takes, as the OpenAI Agents SDK reads them. */
export interface WithHeadwayOptions extends BridgeOptions {
  /** `agentName` of `run.started` (default: the starting agent's name). */
  agentName?: string;
  /** Model calls in all, the last of them the report call (default 20; at least 2). */
  maxIterations?: number;
  /** Called with every failure the bridge survived (a throwing `costOf`, a hub error). */
  onInternalError?: OnInternalError<OpenAIAgentsErrorContext>;
}

/**
 * Validates {@link WithHeadwayOptions}.
 *
 * @throws {OpenAIAgentsError} `OPENAI_AGENTS_INVALID_OPTIONS`, naming every offending field.
 */
export const parseOptions: (input: unknown) => WithHeadwayOptions = createBridgeOptionsParser<WithHeadwayOptions>(
  { maxIterations: z.number().int('must be an integer').min(2, 'must be at least 2 (one working call and the report call)').optional() },
  (message, details) => new OpenAIAgentsError('OPENAI_AGENTS_INVALID_OPTIONS', message, details),
);
