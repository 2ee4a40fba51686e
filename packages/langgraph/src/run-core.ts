// The run state of one LangGraph run: headway's shared bridge core, with node runs as steps and
// supersteps as iterations; LangGraph's own `recursionLimit` ends the working supersteps.
import { createBridgeRunCore, type BridgeRunCore } from '@headway/runtime/bridge-kit';
import { LangGraphError } from './langgraph-error.js';
import type { WithHeadwayOptions } from './options.js';

export type { HeadwayOutcome, HeadwayRunResult } from '@headway/runtime/bridge-kit';

/** Builds the run state for `o` (already validated). */
export function createRunCore(o: WithHeadwayOptions): BridgeRunCore {
  return createBridgeRunCore(o, {
    defaultAgentName: 'langgraph',
    hardStopError: (message) => new LangGraphError('LANGGRAPH_HARD_STOP', message),
    invalidCostError: (message) => new LangGraphError('LANGGRAPH_INVALID_COST', message),
  });
}
