import type { Meter, Tracer } from '@opentelemetry/api';
import type { SinkLike } from '@headway/protocol';
import { describe, expectTypeOf, it } from 'vitest';
import { createOtelSink, type OtelSink, type OtelSinkOptions } from './index.js';

describe('createOtelSink types', () => {
  it('is a hub sink', () => {
    expectTypeOf(createOtelSink()).toEqualTypeOf<OtelSink>();
    expectTypeOf<OtelSink>().toExtend<SinkLike>();
  });

  it('takes an API tracer and meter, or no meter', () => {
    expectTypeOf<Tracer>().toExtend<NonNullable<OtelSinkOptions['tracer']>>();
    expectTypeOf<Meter | false>().toExtend<NonNullable<OtelSinkOptions['meter']>>();
    // @ts-expect-error captureContent is a boolean or settings, not a string
    createOtelSink({ captureContent: 'yes' });
  });
});
