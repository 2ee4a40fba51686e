import type { Meter, Tracer } from '@opentelemetry/api';
import type { SinkLike } from '@headway/protocol';
import { describe, expectTypeOf, it } from 'vitest';
import { otelSink, type OtelSink, type OtelSinkOptions } from './index.js';

describe('otelSink types', () => {
  it('is a hub sink', () => {
    expectTypeOf(otelSink()).toEqualTypeOf<OtelSink>();
    expectTypeOf<OtelSink>().toExtend<SinkLike>();
  });

  it('takes an API tracer and meter, or no meter', () => {
    expectTypeOf<Tracer>().toExtend<NonNullable<OtelSinkOptions['tracer']>>();
    expectTypeOf<Meter | false>().toExtend<NonNullable<OtelSinkOptions['meter']>>();
    // @ts-expect-error captureContent is a boolean or settings, not a string
    otelSink({ captureContent: 'yes' });
  });
});
