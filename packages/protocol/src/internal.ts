/**
 * Small helpers shared by headway's own packages. Not for users: names and shapes here may change
 * in any release.
 *
 * @packageDocumentation
 */
export { adoptThenable, describeThrown, errorMessage, isThenable } from './untrusted.js';
export { mayContainSecret } from './redact.js';
export { MAX_MESSAGE_CHARS, cleanMessage } from './clean-message.js';
export { LIST_KEYS, SECTION_TITLES, STOP_REASON_TEXT, emptyLists } from './report-markdown/report-sections.js';
export type { ReportListKey, ReportSectionKey } from './report-markdown/report-sections.js';
export { describeStats } from './report-markdown/stats-line.js';
export { cutText, detach, formatCount, formatDuration, isSpace, oneLine } from './report-markdown/text.js';
export { CANCELLED_PREFIX } from './bridges.js';
export { describeStall } from './stall-text.js';
export { abortError, repeatOn, sleep, unrefClock, unrefTimer } from './clock.js';
export type { RepeatOptions } from './clock.js';
export { isTokenCount, tokenCountSchema } from './token-count.js';
export { validateUntrusted } from './validate-untrusted.js';
export type { Validated } from './validate-untrusted.js';
