/**
 * Small helpers shared by headway's own packages. Not for users: names and shapes here may change
 * in any release.
 *
 * @packageDocumentation
 */
export { adoptThenable, describeThrown, errorMessage, isThenable } from './untrusted.js';
export { mayContainSecret } from './redact.js';
export { toErrorOptions } from './headway-error.js';
