// fast-check generators shared by this package's tests.
import type { ProgressEvent, ProgressEventBody } from '@headway/protocol';
import { progressEventArbitraries } from '@headway/protocol/testing';
import fc from 'fast-check';

const arbitraries = progressEventArbitraries({ text: fc.string({ maxLength: 30 }) });

/** Valid event bodies of every type (optional keys sometimes left out). */
export const bodyArb: fc.Arbitrary<ProgressEventBody> = arbitraries.body;

/** Valid, enveloped events. */
export const eventArb: fc.Arbitrary<ProgressEvent> = arbitraries.event;

export { deferred, steppingNow as clock } from '@headway/protocol/testing';
