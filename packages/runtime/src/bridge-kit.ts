/**
 * What every bridge into another framework's agent loop shares (`@headway/openai-agents`,
 * `@headway/langgraph`, your own): the shared `withHeadway` options and their validation, the run
 * state that turns the framework's hooks into headway events, limits and the progress report, the
 * signal handed to the framework, and the reading of a model-written report. A bridge maps its
 * framework's hooks onto {@link BridgeRunCore}; everything a user sees then behaves the same in
 * every bridge.
 *
 * @packageDocumentation
 */
export { createBridgeOptionsParser, hasMethod } from './bridge/bridge-options.js';
export type { BridgeErrorContext, BridgeOptions, BridgeWarning, CostOf, InvalidOptionsError } from './bridge/bridge-options.js';
export { createBridgeRunCore } from './bridge/bridge-run-core.js';
export type { BridgeRunCore, BridgeRunSetup, EndKind, HeadwayOutcome, HeadwayRunResult, StopState } from './bridge/bridge-run-core.js';
export { bridgeSignal } from './bridge/bridge-signal.js';
export { reportFromModel } from './bridge/model-report.js';
export { createUnpricedCalls } from './cost/unpriced-calls.js';
export type { UnpricedCalls } from './cost/unpriced-calls.js';
export type { ReportWithWarnings } from './bridge/model-report.js';
