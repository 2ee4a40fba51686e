import { describe, expectTypeOf, it } from 'vitest';
import type { ProgressEvent, ProgressEventBody, ProgressEventOf, ProgressEventType, TerminalEvent } from './events.js';
import { isTerminalEvent } from './events.js';
import type { ProgressHub } from './progress-hub.js';
import { parseProgressEvent } from './parse-progress-event.js';

describe('event types', () => {
  it('narrows on type', () => {
    const event = parseProgressEvent({});
    if (event.type === 'tool.completed') {
      expectTypeOf(event.ok).toEqualTypeOf<boolean>();
      expectTypeOf(event.preview).toEqualTypeOf<string | undefined>();
    }
    if (isTerminalEvent(event)) expectTypeOf(event).toEqualTypeOf<TerminalEvent>();
    expectTypeOf<ProgressEventOf<'iteration'>>().toHaveProperty('index');
  });

  it('bodies have no envelope and emit returns the stamped event', () => {
    expectTypeOf<ProgressEventBody>().not.toHaveProperty('seq');
    expectTypeOf<ProgressHub['emit']>().parameter(0).toEqualTypeOf<ProgressEventBody>();
    expectTypeOf<ProgressHub['emit']>().returns.toEqualTypeOf<ProgressEvent>();
    expectTypeOf<'run.started'>().toExtend<ProgressEventType>();
    expectTypeOf<'run.exploded'>().not.toExtend<ProgressEventType>();
  });

  it('rejects an optional field set to undefined under exactOptionalPropertyTypes', () => {
    // @ts-expect-error task may be absent but not undefined
    const body: ProgressEventBody = { type: 'run.started', agentName: 'a', task: undefined };
    expectTypeOf(body).toEqualTypeOf<ProgressEventBody>();
  });
});
