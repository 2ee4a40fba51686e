import { ManualClock, systemClock as protocolSystemClock, type Clock, type ManualClockOptions } from '@headway/protocol';
import { abortError, sleep } from '@headway/protocol/internal';

// The Clock type, the system clock, the manual clock and `sleep` are protocol's (one for every
// package); runtime re-exports them for code written against its own names.
export type { Clock, ManualClockOptions };
export { ManualClock, abortError, sleep };

/** The real clock: `Date.now` and the host's timers (protocol's `systemClock`). */
export const systemClock: Clock = protocolSystemClock;
