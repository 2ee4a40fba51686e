import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { createProgressHub, systemClock } from '@headway/protocol';
import { describe, expect, it } from 'vitest';
import type { JSONReporterError } from './json-reporter-error.js';
import { JSONReporter } from './json-reporter.js';
import { gatedStream, memoryStream, turn } from './stream.test-util.js';

const iterationsOf = (text: string): number[] =>
  text
    .split('\n')
    .slice(0, -1)
    .map((line) => (JSON.parse(line) as { current: number }).current);

/** A Writable that records each write() it gets, whole. */
function countingStream(highWaterMark?: number): { stream: Writable; writes: string[] } {
  const writes: string[] = [];
  const stream = new Writable({
    decodeStrings: false,
    ...(highWaterMark === undefined ? {} : { highWaterMark }),
    write(chunk: string | Buffer, _encoding, callback) {
      writes.push(String(chunk));
      callback();
    },
  });
  return { stream, writes };
}

describe('JSONReporter writes the lines of one turn together', () => {
  it('writes the lines of a turn, microtasks included, as one write when the turn ends, in order', async () => {
    const { stream, writes } = countingStream();
    const reporter = new JSONReporter({ stream });
    reporter.onIteration(0, 3);
    await Promise.resolve();
    reporter.onToolStart('file_read');
    await Promise.resolve();
    reporter.onToolDone('file_read', 'ok');
    expect(writes).toEqual([]);
    await turn();
    expect(writes).toEqual([
      '{"event":"iteration","current":0,"max":3}\n{"event":"tool_start","tool":"file_read"}\n{"event":"tool_done","tool":"file_read","summary":"ok"}\n',
    ]);
    reporter.onIteration(1, 3);
    await turn();
    expect(writes.at(-1)).toBe('{"event":"iteration","current":1,"max":3}\n');
    expect(reporter.stats()).toEqual({ written: 4, dropped: 0, buffered: 0, bufferedBytes: 0, stopped: false });
  });

  it("writes a run's lines at once at its terminal event, and holds the next turn's lines again", async () => {
    const { stream, writes } = countingStream();
    const reporter = new JSONReporter({ stream });
    const hub = createProgressHub({ runId: 'r', clock: { ...systemClock, now: () => 7 } });
    hub.add(reporter);
    hub.emit({ type: 'run.started', agentName: 'a' });
    hub.emit({ type: 'iteration', index: 0, max: 1 });
    expect(writes).toEqual([]);
    hub.emit({ type: 'run.finished', durationMs: 1, outcome: 'completed' });
    // Synchronously, as one write: nothing of this run follows its terminal event.
    expect(writes).toEqual([
      [
        '{"type":"run.started","agentName":"a","runId":"r","seq":1,"ts":7}',
        '{"type":"iteration","index":0,"max":1,"runId":"r","seq":2,"ts":7}',
        '{"type":"run.finished","durationMs":1,"outcome":"completed","runId":"r","seq":3,"ts":7}',
        '',
      ].join('\n'),
    ]);
    reporter.onStart('next');
    expect(writes).toHaveLength(1);
    await turn();
    expect(writes).toEqual([writes[0], '{"event":"start","task":"next"}\n']);
    expect(reporter.stats()).toEqual({ written: 4, dropped: 0, buffered: 0, bufferedBytes: 0, stopped: false });
  });

  it("writes at once when the lines held reach the stream's high-water mark", () => {
    const { stream, writes } = countingStream(100);
    const reporter = new JSONReporter({ stream });
    // 43 bytes each: the third line takes the held lines past 100 characters.
    for (let i = 0; i < 3; i++) reporter.onIteration(i, 10);
    expect(writes).toEqual([[0, 1, 2].map((i) => `{"event":"iteration","current":${String(i)},"max":10}\n`).join('')]);
    reporter.onIteration(3, 10);
    expect(reporter.stats()).toMatchObject({ written: 3, buffered: 1 });
  });

  it('hands held lines over synchronously in flush() and close(), before they resolve', () => {
    const { stream, writes } = countingStream();
    const reporter = new JSONReporter({ stream });
    reporter.onStart('a');
    void reporter.flush();
    expect(writes).toEqual(['{"event":"start","task":"a"}\n']);
    reporter.onComplete('done');
    void reporter.close();
    expect(writes).toEqual(['{"event":"start","task":"a"}\n', '{"event":"complete","summary":"done"}\n']);
    expect(reporter.stats()).toMatchObject({ written: 2, buffered: 0, stopped: true });
  });

  it('survives a stream that throws when the held lines go out at the end of the turn', async () => {
    const stream = Object.assign(
      new Writable({
        write: (_chunk, _encoding, callback) => {
          callback();
        },
      }),
      {
        write: (): boolean => {
          throw new Error('write threw');
        },
      },
    );
    const reports: JSONReporterError[] = [];
    const reporter = new JSONReporter({ stream, onInternalError: (e) => reports.push(e) });
    reporter.onStart('a');
    reporter.onStart('b');
    await turn();
    reporter.onStart('c');
    await reporter.flush();
    expect(reports.map((e) => [e.code, (e.cause as Error).message])).toEqual([['REPORTER_JSON_WRITE_FAILED', 'write threw']]);
    expect(reporter.stats()).toMatchObject({ written: 0, dropped: 3, buffered: 0, stopped: true });
  });

  it('writes the lines held when the process exits before the turn ends', async () => {
    const dist = fileURLToPath(new URL('../dist/index.js', import.meta.url));
    expect(existsSync(dist), 'build the package first (pnpm -F @headway/reporter-json build)').toBe(true);
    const script = `
      import { JSONReporter } from ${JSON.stringify(dist)};
      const reporter = new JSONReporter();
      reporter.onStart('a');
      reporter.onComplete('exits right after');
      process.exit(3);`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    const [code] = (await once(child, 'close')) as [number | null];
    expect({ code, stdout }).toEqual({
      code: 3,
      stdout: '{"event":"start","task":"a"}\n{"event":"complete","summary":"exits right after"}\n',
    });
  });
});

describe('JSONReporter under backpressure', () => {
  it('buffers while the stream is full, drops the oldest beyond the bound, and resumes on drain', async () => {
    const { stream, chunks, release } = gatedStream(64);
    const reporter = new JSONReporter({ stream, maxBufferedLines: 5 });
    // Lines 0–9 are 43 bytes: the first fits under the 64-byte mark, the second fills it.
    for (let i = 0; i < 50; i++) reporter.onIteration(i, 50);
    expect(reporter.stats()).toEqual({ written: 2, dropped: 43, buffered: 5, bufferedBytes: 5 * 44, stopped: false });
    expect(stream.writableLength).toBe(86);

    const flushed = reporter.flush();
    await release();
    await flushed;
    expect(iterationsOf(chunks.join(''))).toEqual([0, 1, 45, 46, 47, 48, 49]);
    // Whole lines only, even in the batch written after `drain`.
    expect(chunks.every((chunk) => chunk.endsWith('\n'))).toBe(true);
    expect(reporter.stats()).toEqual({ written: 7, dropped: 43, buffered: 0, bufferedBytes: 0, stopped: false });

    reporter.onIteration(50, 50);
    await release();
    expect(iterationsOf(chunks.join('')).at(-1)).toBe(50);
  });

  it('gets every line, whole and in order, into a real file stream that pushes back', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'reporter-json-'));
    try {
      const path = join(dir, 'progress.jsonl');
      const file = createWriteStream(path, { highWaterMark: 1024 });
      const reporter = new JSONReporter({ stream: file });
      for (let i = 0; i < 5000; i++) reporter.onIteration(i, 5000);
      expect(reporter.stats().buffered).toBeGreaterThan(0);
      await reporter.close();
      file.end();
      await once(file, 'close');
      expect(iterationsOf(readFileSync(path, 'utf8'))).toEqual(Array.from({ length: 5000 }, (_, i) => i));
      expect(reporter.stats()).toMatchObject({ written: 5000, dropped: 0, buffered: 0 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('bounds the buffer in bytes too', () => {
    const { stream } = gatedStream(1);
    const reporter = new JSONReporter({ stream, maxBufferedBytes: 100 });
    for (let i = 0; i < 10; i++) reporter.onIteration(i, 50);
    expect(reporter.stats()).toMatchObject({ written: 1, buffered: 2, bufferedBytes: 86, dropped: 7 });
    reporter.onError('x'.repeat(200));
    expect(reporter.stats()).toMatchObject({ buffered: 2, dropped: 8 });
  });

  it('keeps memory bounded when the consumer never reads', () => {
    const { stream } = gatedStream(1024);
    const reporter = new JSONReporter({ stream, maxBufferedLines: 1000, maxBufferedBytes: 32 * 1024 });
    const label = 'a label of some length '.repeat(4);
    for (let i = 0; i < 100_000; i++) reporter.onProgress(i / 1000, label);
    const stats = reporter.stats();
    expect(stats.buffered).toBeLessThanOrEqual(1000);
    expect(stats.bufferedBytes).toBeLessThanOrEqual(32 * 1024);
    expect(stream.writableLength).toBeLessThan(2048);
    expect(stats.written + stats.buffered + stats.dropped).toBe(100_000);
  });
});

describe('JSONReporter when the consumer goes away', () => {
  it('stops quietly and reports once when a destroyed stream is written to', async () => {
    const { stream, lines } = memoryStream();
    const reports: JSONReporterError[] = [];
    const reporter = new JSONReporter({ stream, onInternalError: (e) => reports.push(e) });
    reporter.onStart('a');
    await reporter.flush();
    stream.destroy();
    await turn();
    reporter.onStart('b');
    reporter.onStart('c');
    expect(lines()).toEqual(['{"event":"start","task":"a"}']);
    expect(reports.map((e) => e.code)).toEqual(['REPORTER_JSON_STREAM_CLOSED']);
    expect(reporter.stats()).toMatchObject({ written: 1, dropped: 2, stopped: true });
  });

  it('drops what it buffered when the stream is destroyed mid-backpressure, and flush() still resolves', async () => {
    const { stream } = gatedStream(16);
    const reports: JSONReporterError[] = [];
    const reporter = new JSONReporter({ stream, onInternalError: (e) => reports.push(e) });
    for (let i = 0; i < 10; i++) reporter.onIteration(i, 10);
    const flushed = reporter.flush();
    stream.destroy(new Error('disk gone'));
    await flushed;
    expect(reports).toHaveLength(1);
    expect(reports[0]?.code).toBe('REPORTER_JSON_WRITE_FAILED');
    expect((reports[0]?.cause as Error).message).toBe('disk gone');
    expect(reporter.stats()).toEqual({ written: 1, dropped: 9, buffered: 0, bufferedBytes: 0, stopped: true });
  });

  it('treats a stream its owner ended as gone', async () => {
    const { stream } = memoryStream();
    const reports: JSONReporterError[] = [];
    const reporter = new JSONReporter({ stream, onInternalError: (e) => reports.push(e) });
    stream.end();
    reporter.onComplete('done');
    await reporter.flush();
    expect(reports.map((e) => e.code)).toEqual(['REPORTER_JSON_STREAM_CLOSED']);
  });

  it('stops quietly once a child process reading its lines exits early', async () => {
    const child = spawn(process.execPath, ['-e', 'process.stdin.once("data", () => process.exit(0))'], {
      stdio: ['pipe', 'ignore', 'inherit'],
    });
    const reports: JSONReporterError[] = [];
    const reporter = new JSONReporter({ stream: child.stdin, onInternalError: (e) => reports.push(e) });
    reporter.onStart('the first line wakes the child, which exits');
    await once(child, 'exit');
    for (let i = 0; i < 1000 && reports.length === 0; i++) {
      reporter.onIteration(i, 1000);
      await turn();
    }
    for (let i = 0; i < 100; i++) reporter.onToolStart('after the end');
    await turn();
    // Node may notice the closed pipe (close) before a write fails (EPIPE); either way, once.
    expect(reports).toHaveLength(1);
    const [report] = reports;
    if (report?.code === 'REPORTER_JSON_WRITE_FAILED') expect((report.cause as NodeJS.ErrnoException).code).toBe('EPIPE');
    else expect(report?.code).toBe('REPORTER_JSON_STREAM_CLOSED');
    expect(reporter.stats().stopped).toBe(true);
    expect(reporter.dropped).toBeGreaterThanOrEqual(100);
  });

  it('survives EPIPE on a real pipe whose reader closed its end', async () => {
    // The child closes its stdin and says so, then idles until the test ends it.
    const child = spawn(process.execPath, ['-e', 'require("fs").closeSync(0); console.log("closed"); setInterval(() => {}, 1000)'], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    try {
      await once(createInterface({ input: child.stdout }), 'line');
      const reports: JSONReporterError[] = [];
      const reporter = new JSONReporter({ stream: child.stdin, onInternalError: (e) => reports.push(e) });
      for (let i = 0; i < 1000 && reports.length === 0; i++) {
        expect(() => {
          reporter.onIteration(i, 1000);
        }).not.toThrow();
        await turn();
      }
      for (let i = 0; i < 100; i++) reporter.onToolStart('after the end');
      await turn();
      expect(reports).toHaveLength(1);
      expect(reports[0]?.code).toBe('REPORTER_JSON_WRITE_FAILED');
      expect((reports[0]?.cause as NodeJS.ErrnoException).code).toBe('EPIPE');
      expect(reports[0]?.message).toContain('EPIPE');
      expect(reporter.stats().stopped).toBe(true);
      expect(reporter.dropped).toBeGreaterThanOrEqual(100);
    } finally {
      child.kill();
    }
  });

  it('keeps a process alive and quiet when the reader of its stdout goes away (default stream)', async () => {
    const dist = fileURLToPath(new URL('../dist/index.js', import.meta.url));
    expect(existsSync(dist), 'build the package first (pnpm -F @headway/reporter-json build)').toBe(true);
    const script = `
      import { JSONReporter } from ${JSON.stringify(dist)};
      const reported = [];
      const reporter = new JSONReporter({ onInternalError: (e) => reported.push(e.cause?.code ?? e.code) });
      let i = 0;
      const burst = () => {
        for (let k = 0; k < 200; k++) reporter.onIteration(i++, 1e6);
        if (i < 200000 && !reporter.stats().stopped) setImmediate(burst);
        else process.stderr.write(JSON.stringify({ reported, stopped: reporter.stats().stopped }) + '\\n');
      };
      burst();`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const reader = createInterface({ input: child.stdout });
    const [first] = (await once(reader, 'line')) as [string];
    reader.close();
    child.stdout.destroy();
    const [code, signal] = (await once(child, 'exit')) as [number | null, string | null];
    expect(first).toBe('{"event":"iteration","current":0,"max":1000000}');
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(JSON.parse(stderr.trim())).toEqual({ reported: ['EPIPE'], stopped: true });
  });
});
