import { HeadwayError, createProgressHub, parseProgressEvent, systemClock, type ProgressEvent } from '@headway/protocol';
import { Socket } from 'node:net';
import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { callSevenMethods, secretArb } from '@headway/protocol/testing';
import { wildEventArb } from './arbitraries.test-util.js';
import type { JSONReporterError } from './json-reporter-error.js';
import { JSONReporter } from './json-reporter.js';
import { memoryStream } from './stream.test-util.js';

describe('JSONReporter', () => {
  it('writes one line per reporter call, in the documented shapes', async () => {
    const { stream, text } = memoryStream();
    const reporter = new JSONReporter({ stream });
    callSevenMethods(reporter);
    // Held for one write at the end of this turn of the event loop.
    expect(text()).toBe('');
    expect(reporter.stats()).toEqual({ written: 0, dropped: 0, buffered: 8, bufferedBytes: 401, stopped: false });
    await reporter.flush();
    expect(text()).toMatchInlineSnapshot(`
      "{"event":"start","task":"Summarize the README file"}
      {"event":"iteration","current":0,"max":10}
      {"event":"progress","pct":45,"label":"Analyzing input"}
      {"event":"tool_start","tool":"file_read"}
      {"event":"tool_done","tool":"file_read","summary":"ok"}
      {"event":"iteration","current":1,"max":10}
      {"event":"complete","summary":"finished after 2 iteration(s)"}
      {"event":"error","error":"Provider timeout"}
      "
    `);
    expect(reporter.stats()).toEqual({ written: 8, dropped: 0, buffered: 0, bufferedBytes: 0, stopped: false });
  });

  it('attaches to the streams people use and detaches on close()', async () => {
    const streams = [process.stdout, process.stderr, new PassThrough(), new Socket()];
    const before = streams.map((s) => s.listenerCount('error'));
    const reporters = streams.map((stream) => new JSONReporter({ stream }));
    expect(streams.map((s) => s.listenerCount('error'))).toEqual(before.map((n) => n + 1));
    await Promise.all(reporters.map((r) => r.close()));
    expect(streams.map((s) => s.listenerCount('error'))).toEqual(before);
  });

  it('writes every event of a progress hub as a line parseProgressEvent reads back', async () => {
    const { stream, lines } = memoryStream();
    const reporter = new JSONReporter({ stream });
    let clock = 1_700_000_000_000;
    const hub = createProgressHub({ runId: 'run-1', clock: { ...systemClock, now: () => (clock += 5) } });
    hub.add(reporter);
    const emitted: ProgressEvent[] = [
      hub.emit({ type: 'run.started', agentName: 'demo', task: 'Summarize the README file' }),
      hub.emit({ type: 'iteration', index: 0, max: 10 }),
      hub.emit({ type: 'tool.executing', toolName: 'file_read', toolCallId: 'c1', args: { path: 'README.md' } }),
      hub.emit({ type: 'tool.completed', toolName: 'file_read', toolCallId: 'c1', durationMs: 12, ok: true, preview: '# headway' }),
      hub.emit({
        type: 'plan.updated',
        items: [
          { id: 'a', text: 'Read the README', status: 'completed' },
          { text: 'Summarize', status: 'in_progress' },
        ],
      }),
      hub.emit({ type: 'progress', percent: 45, message: 'Analyzing input', etaMs: 3000, etaLowMs: 1000, etaHighMs: 9000 }),
      hub.emit({ type: 'run.finished', durationMs: 1200, outcome: 'completed', summary: 'finished after 1 iteration(s)' }),
    ];
    await reporter.flush();
    expect(lines().map((line) => parseProgressEvent(JSON.parse(line)))).toEqual(emitted);
    expect(lines()[1]).toBe('{"type":"iteration","index":0,"max":10,"runId":"run-1","seq":2,"ts":1700000000010}');
    expect(hub.stats().sinkErrors).toBe(0);
  });

  it('lets no secret from tool args, results or messages reach the bytes written', () => {
    fc.assert(
      fc.property(secretArb, secretArb, wildEventArb, (a, b, noise) => {
        const { stream, text } = memoryStream();
        const reporter = new JSONReporter({ stream, redact: { paths: ['args.customerId', 'report.task'] } });
        const envelope = { runId: 'r', seq: 1, ts: 0 };
        reporter.onStart(`deploy with ${a.text}`);
        reporter.onProgress(10, `calling api ${b.text}`);
        reporter.onToolStart(a.text);
        reporter.onToolDone('http', `got ${b.text} back`);
        reporter.onComplete(a.text);
        reporter.onError(`failed: ${b.text}`);
        reporter.handle(noise);
        reporter.handle({
          ...envelope,
          type: 'tool.executing',
          toolName: 'http',
          args: { apiKey: 'plainlooking', customerId: 'cust-4711', headers: { Authorization: a.text }, body: `x ${b.text}` },
        });
        reporter.handle({
          ...envelope,
          type: 'tool.completed',
          toolName: 'http',
          durationMs: 3,
          ok: true,
          preview: `{"token": "${a.secret}"} ${b.text}`,
        });
        reporter.handle({ ...envelope, type: 'thinking', content: `use ${a.text} then ${b.text}` });
        reporter.handle({ ...envelope, type: 'run.error', error: b.text });
        void reporter.flush(); // hands the held lines to the (synchronous) stream now
        const bytes = text();
        for (const secret of [a.secret, b.secret, 'plainlooking', 'cust-4711']) expect(bytes).not.toContain(secret);
        expect(bytes.split('\n').length).toBe(12);
      }),
      { numRuns: 300 },
    );
  });

  it('writes values exactly as given with redact: false', async () => {
    const { stream, lines } = memoryStream();
    const reporter = new JSONReporter({ stream, redact: false });
    reporter.onToolDone('login', 'password=hunter2hunter2');
    await reporter.flush();
    expect(lines()).toEqual(['{"event":"tool_done","tool":"login","summary":"password=hunter2hunter2"}']);
  });

  it('never throws into its caller, whatever it is given', async () => {
    const { stream, lines } = memoryStream();
    const reporter = new JSONReporter({ stream });
    const hostile = new Proxy(
      {},
      {
        ownKeys() {
          throw new Error('no keys for you');
        },
      },
    );
    const revocable = Proxy.revocable({}, {});
    revocable.revoke();
    expect(() => {
      reporter.handle(hostile as ProgressEvent);
      reporter.handle(revocable.proxy as ProgressEvent);
      reporter.handle(null as unknown as ProgressEvent);
      reporter.handle(5 as unknown as ProgressEvent);
      reporter.handle([] as unknown as ProgressEvent);
      reporter.onStart({ toString: () => 'x' } as unknown as string);
      reporter.onProgress(10n as unknown as number, 'big');
    }).not.toThrow();
    await reporter.flush();
    // The first five are no events that can be read; the rest are written as JSON would write them.
    expect(reporter.stats()).toMatchObject({ written: 2, dropped: 5 });
    expect(lines()).toEqual(['{"event":"start","task":{}}', '{"event":"progress","pct":"10","label":"big"}']);
  });

  it('swallows a throwing onInternalError and reports a gone consumer only once', async () => {
    const { stream } = memoryStream();
    const reports: JSONReporterError[] = [];
    const reporter = new JSONReporter({
      stream,
      onInternalError: (error) => {
        reports.push(error);
        throw new Error('handler bug');
      },
    });
    stream.destroy();
    expect(() => {
      reporter.onStart('a');
      reporter.onStart('b');
    }).not.toThrow();
    await reporter.flush();
    expect(reports.map((e) => e.code)).toEqual(['REPORTER_JSON_STREAM_CLOSED']);
    expect(reporter.dropped).toBe(2);
  });

  it('rejects bad buffer limits with a coded error naming the option', () => {
    for (const maxBufferedLines of [0, -1, 1.5, Number.NaN]) {
      let caught: unknown;
      try {
        new JSONReporter({ stream: memoryStream().stream, maxBufferedLines });
      } catch (error) {
        caught = error;
      }
      expect(HeadwayError.isInstance(caught, 'REPORTER_JSON_INVALID_OPTIONS')).toBe(true);
      expect((caught as Error).message).toContain('maxBufferedLines');
    }
    expect(() => new JSONReporter({ stream: memoryStream().stream, redact: { paths: ['a..b'] } })).toThrow(/invalid path/);
  });

  it('removes its listeners from the stream on close() and writes nothing after', async () => {
    const { stream, lines } = memoryStream();
    const before = [stream.listenerCount('error'), stream.listenerCount('close')];
    const reporter = new JSONReporter({ stream });
    expect([stream.listenerCount('error'), stream.listenerCount('close')]).toEqual([before[0]! + 1, before[1]! + 1]);
    reporter.onStart('a');
    await reporter.close();
    reporter.onStart('b');
    expect([stream.listenerCount('error'), stream.listenerCount('close'), stream.listenerCount('drain')]).toEqual([...before, 0]);
    expect(lines()).toEqual(['{"event":"start","task":"a"}']);
    expect(reporter.stats()).toMatchObject({ written: 1, dropped: 1, stopped: true });
  });
});
