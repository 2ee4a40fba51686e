import type { AGUIEvent, RunAgentInput } from '@ag-ui/core';
import type { ProgressEvent } from '@headway/protocol';
import { expectTypeOf, test } from 'vitest';
import { createAgUiHandler, toAgUiEvents, type AgUiRunContext, type ProgressActivityContent } from './index.js';

test('the mapper speaks @ag-ui/core types', () => {
  const mapper = toAgUiEvents({ threadId: 't' });
  expectTypeOf<Parameters<typeof mapper.push>[0]>().toEqualTypeOf<ProgressEvent>();
  expectTypeOf<ReturnType<typeof mapper.push>>().toEqualTypeOf<AGUIEvent[]>();
  expectTypeOf(mapper.activity()).toEqualTypeOf<ProgressActivityContent>();
});

test('a run function gets the validated input, a signal, emit and sink', () => {
  createAgUiHandler({
    run: (context) => {
      expectTypeOf(context).toEqualTypeOf<AgUiRunContext>();
      expectTypeOf(context.input).toEqualTypeOf<RunAgentInput>();
      expectTypeOf(context.signal).toEqualTypeOf<AbortSignal>();
      expectTypeOf(context.sink).parameter(0).toEqualTypeOf<ProgressEvent>();
      // @ts-expect-error: emit takes an event body, not a full event with an envelope of its own kind
      context.emit({ type: 'no.such.event' });
    },
  });
});
