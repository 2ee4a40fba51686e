// The event generators this package's tests use: the public testing entry, with its defaults.
import type fc from 'fast-check';
import type { ProgressEvent, ProgressEventBody } from './events.js';
import { progressEventArbitraries } from './testing.js';

const arbitraries = progressEventArbitraries();
export const bodyArb: fc.Arbitrary<ProgressEventBody> = arbitraries.body;
export const eventArb: fc.Arbitrary<ProgressEvent> = arbitraries.event;
