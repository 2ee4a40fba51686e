/**
 * Helpers for writing a `Provider` for a vendor's API (`@headway/provider-openai`,
 * `@headway/provider-anthropic`, your own): the API-key client every such provider holds, and
 * how an HTTP failure is read (retryable statuses, `retry-after`), so every provider answers
 * `isAvailable`, `unavailableReason` and the registry's retries the same way. Check a provider
 * against a `ScriptedServer` of `@headway/runtime/testing`.
 *
 * @packageDocumentation
 */
export { VendorClient } from './provider/vendor-client.js';
export type { VendorClientOptions } from './provider/vendor-client.js';
export { isRetryableStatus, retryAfterMs } from './provider/retry-policy.js';
export { createCallDeadline, sdkBackstopTimeout } from './provider/call-deadline.js';
export type { CallDeadline } from './provider/call-deadline.js';
