// fast-check generators shared by this package's tests.
import { systemClock, type Clock, type ProgressEvent, type ProgressEventBody } from '@headway/protocol';
import { progressEventArbitraries } from '@headway/protocol/testing';
import { steppingNow } from '@headway/test-utils';
import fc from 'fast-check';

const arbitraries = progressEventArbitraries({ text: fc.string({ maxLength: 30 }) });

/** Valid event bodies of every type (optional keys sometimes left out). */
export const bodyArb: fc.Arbitrary<ProgressEventBody> = arbitraries.body;

/** Valid, enveloped events. */
export const eventArb: fc.Arbitrary<ProgressEvent> = arbitraries.event;

/** A clock whose time advances 5 ms per reading, from `start`. */
export function clock(start = 1_000): Clock {
  return { ...systemClock, now: steppingNow(start) };
}

export { deferred } from '@headway/test-utils';
