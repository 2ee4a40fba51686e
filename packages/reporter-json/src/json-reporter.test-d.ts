import type { ChildProcess } from 'node:child_process';
import type { WriteStream } from 'node:fs';
import type { Socket } from 'node:net';
import type { Writable } from 'node:stream';
import type { EventHandler, ProgressReporter, RedactOptions, SinkLike } from '@headway/protocol';
import { describe, expectTypeOf, it } from 'vitest';
import type { JSONReporterError, JSONReporterErrorCode } from './json-reporter-error.js';
import type { JSONReporter, JSONReporterOptions, JSONReporterStats } from './json-reporter.js';
import type { LineStream } from './line-writer.js';

describe('JSONReporter types', () => {
  it('is a ProgressReporter and a progress-hub sink', () => {
    expectTypeOf<JSONReporter>().toExtend<ProgressReporter>();
    expectTypeOf<JSONReporter>().toExtend<EventHandler>();
    expectTypeOf<JSONReporter>().toExtend<SinkLike>();
    expectTypeOf<JSONReporter['handle']>().returns.toBeVoid();
  });

  it('writes to the streams people use', () => {
    expectTypeOf<typeof process.stdout>().toExtend<LineStream>();
    expectTypeOf<Writable>().toExtend<LineStream>();
    expectTypeOf<WriteStream>().toExtend<LineStream>();
    expectTypeOf<Socket>().toExtend<LineStream>();
    expectTypeOf<NonNullable<ChildProcess['stdin']>>().toExtend<LineStream>();
    expectTypeOf<{ write(chunk: string): void }>().not.toExtend<LineStream>();
  });

  it('takes protocol redaction options or false, and reports coded errors', () => {
    expectTypeOf<JSONReporterOptions['redact']>().toEqualTypeOf<RedactOptions | false | undefined>();
    expectTypeOf<Parameters<NonNullable<JSONReporterOptions['onInternalError']>>[0]>().toEqualTypeOf<JSONReporterError>();
    expectTypeOf<JSONReporterError['code']>().toEqualTypeOf<JSONReporterErrorCode>();
    expectTypeOf<JSONReporterStats>().toEqualTypeOf<{
      written: number;
      dropped: number;
      buffered: number;
      bufferedBytes: number;
      stopped: boolean;
    }>();
  });
});
