import type { CheckpointErrorCode } from './checkpoint/checkpoint-error.js';
import type { CostErrorCode } from './cost/cost-error.js';
import type { ConfigErrorCode } from './loop/config-error.js';
import type { ProviderErrorCode } from './provider/provider-error.js';
import type { SessionErrorCode } from './session/session-error.js';

/**
 * Every code an error of `@headway/runtime` can carry. The runtime has one error class per part
 * because its parts are used apart (every store throws `CheckpointError`, every provider
 * `ProviderError`); this is the one union of all of them.
 */
export type RuntimeErrorCode = ConfigErrorCode | ProviderErrorCode | CheckpointErrorCode | SessionErrorCode | CostErrorCode;
