import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HeadwayError, ManualClock } from '@headway/protocol';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { AUDIT_GENESIS_HASH, auditRecordHash } from './audit-chain.js';
import type { AuditEvent } from './audit-event.js';
import { AuditLogError } from './audit-log-error.js';
import { AuditReporter } from './audit-reporter.js';
import { JsonlAuditBus } from './jsonl-audit-bus.js';
import { readAuditLog } from './read-audit-log.js';
import { unchain } from './chain.test-util.js';

const root = mkdtempSync(join(tmpdir(), 'headway-audit-jsonl-'));
let n = 0;
const tempFile = (): string => join(root, `run-${(n += 1)}`, 'audit.jsonl');
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

function ev(i: number, detail: Record<string, unknown> = { i, text: `event number ${i} — ünïcode` }): AuditEvent {
  return {
    eventType: 'agent.progress.update',
    category: 'agent',
    result: 'allow',
    sessionId: 's1',
    taskId: 't1',
    timestamp: 1000 + i,
    detail,
  };
}

describe('JsonlAuditBus', () => {
  it('appends one JSON line per event, creating the directory, and reads them back', async () => {
    const file = tempFile();
    const bus = new JsonlAuditBus(file);
    const reporter = new AuditReporter({ sessionId: 's1', taskId: 't1', bus, clock: new ManualClock({ start: 42 }) });
    reporter.onStart('Summarize the README file');
    reporter.onIteration(0, 10);
    bus.close();
    const text = readFileSync(file, 'utf8');
    const [h1, h2] = text
      .trimEnd()
      .split('\n')
      .map((line) => auditRecordHash(JSON.parse(line) as AuditEvent));
    expect(text).toBe(
      '{"eventType":"agent.progress.start","category":"agent","result":"allow","sessionId":"s1","taskId":"t1","timestamp":42,' +
        `"detail":{"task":"Summarize the README file"},"prevHash":"${AUDIT_GENESIS_HASH}","hash":"${h1}"}\n` +
        '{"eventType":"agent.progress.iteration","category":"agent","result":"allow","sessionId":"s1","taskId":"t1","timestamp":42,' +
        `"detail":{"iteration":0,"max":10},"prevHash":"${h1}","hash":"${h2}"}\n`,
    );
    const { events, problems } = await readAuditLog(file);
    expect(problems).toEqual([]);
    expect(events.map((e) => e.detail)).toEqual([{ task: 'Summarize the README file' }, { iteration: 0, max: 10 }]);
  });

  it('appends to an existing log across reopens, with optional fsync', async () => {
    const file = tempFile();
    const first = new JsonlAuditBus(file, { fsync: true });
    first.publish(ev(1));
    first.close();
    first.close();
    const second = new JsonlAuditBus(file);
    expect(second.recoveredTornLine).toBe(false);
    second.publish(ev(2));
    expect(unchain((await second.read()).events)).toEqual([ev(1), ev(2)]);
    second.close();
  });

  it('skips a torn last line from a crash and reports it with file:line', async () => {
    const file = tempFile();
    const bus = new JsonlAuditBus(file);
    for (let i = 1; i <= 3; i += 1) bus.publish(ev(i));
    bus.close();
    const size = statSync(file).size;
    truncateSync(file, size - 20); // a crash in the middle of writing line 3

    const read = await readAuditLog(file);
    expect({ events: unchain(read.events), problems: read.problems }).toEqual({
      events: [ev(1), ev(2)],
      problems: [{ file, line: 3, kind: 'torn', message: `${file}:3: torn record (cut off mid-write), skipped` }],
    });
    expect((await readAuditLog(file, { strict: true })).events).toHaveLength(2);
  });

  it('seals a torn line on reopen so new events stay readable', async () => {
    const file = tempFile();
    const bus = new JsonlAuditBus(file);
    for (let i = 1; i <= 3; i += 1) bus.publish(ev(i));
    bus.close();
    truncateSync(file, statSync(file).size - 7);

    const reopened = new JsonlAuditBus(file);
    expect(reopened.recoveredTornLine).toBe(true);
    reopened.publish(ev(4));
    reopened.close();
    const { events, problems } = await readAuditLog(file, { strict: true });
    expect(unchain(events)).toEqual([ev(1), ev(2), ev(4)]);
    expect(problems.map((p) => [p.line, p.kind])).toEqual([[3, 'torn']]);
  });

  it('never breaks reading, wherever a crash cuts the file', async () => {
    const file = tempFile();
    const originals = [ev(1), ev(2, { nested: { list: [1, 2.5, null, true], s: 'quote " and \\ and é✓' } }), ev(3, {})];
    const bus = new JsonlAuditBus(file);
    for (const e of originals) bus.publish(e);
    bus.close();
    const full = readFileSync(file);
    const lineEnds = [...full.entries()].filter(([, b]) => b === 0x0a).map(([i]) => i + 1);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: full.length }), async (cut) => {
        writeFileSync(file, full.subarray(0, cut));
        // A record whose newline alone is missing is whole: it is read, not skipped.
        const complete = lineEnds.filter((end) => end - 1 <= cut).length;
        const { events, problems } = await readAuditLog(file, { strict: true });
        expect(unchain(events)).toEqual(originals.slice(0, complete));
        const atBoundary = cut === 0 || lineEnds.includes(cut);
        const torn = atBoundary || lineEnds.includes(cut + 1) ? 0 : 1;
        expect(problems.map((p) => p.kind)).toEqual(torn === 1 ? ['torn'] : []);

        const again = new JsonlAuditBus(file);
        expect(again.recoveredTornLine).toBe(!atBoundary);
        again.publish(ev(9));
        again.close();
        const after = await readAuditLog(file, { strict: true });
        expect(unchain(after.events)).toEqual([...originals.slice(0, complete), ev(9)]);
        expect(after.problems.map((p) => p.kind)).toEqual(torn === 1 ? ['torn'] : []);
      }),
      { numRuns: 120 },
    );
  });

  it('reports lines that are not audit events with file:line and the path, or throws in strict mode', async () => {
    const file = tempFile();
    const bus = new JsonlAuditBus(file);
    bus.publish(ev(1));
    bus.close();
    appendFileSync(
      file,
      'not json at all\n\n{"eventType":"","category":"agent","result":"deny","sessionId":"s","taskId":"t","timestamp":1,"detail":{}}\n',
    );
    const { events, problems } = await readAuditLog(file);
    expect(unchain(events)).toEqual([ev(1)]);
    expect(problems.map((p) => p.message)).toEqual([
      `${file}:2: not JSON (Unexpected token 'o', "not json at all" is not valid JSON)`,
      `${file}:4: not an audit event: eventType: too small: expected string to have >=1 characters; result: invalid input: expected "allow"`,
    ]);
    await expect(readAuditLog(file, { strict: true })).rejects.toSatisfy(
      (e: unknown) => e instanceof AuditLogError && e.code === 'AUDIT_INVALID_LINE' && e.location === `${file}:2`,
    );
  });

  it('refuses invalid events and use after close; a reporter counts those as failures', () => {
    const file = tempFile();
    const bus = new JsonlAuditBus(file);
    expect(() => {
      bus.publish({ ...ev(1), sessionId: 5 } as unknown as AuditEvent);
    }).toThrow('Invalid audit event: sessionId: invalid input: expected string, received number');
    bus.close();
    expect(() => {
      bus.publish(ev(1));
    }).toThrow(/is closed/);
    const errors: unknown[] = [];
    const reporter = new AuditReporter({ sessionId: 's', taskId: 't', bus, onInternalError: (e) => errors.push(e) });
    reporter.onStart('x');
    expect(reporter.failures).toBe(1);
    expect(HeadwayError.isInstance(errors[0], 'AUDIT_BUS_CLOSED')).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe('');
  });

  it('keeps whole lines when two writers append to the same file', async () => {
    const file = tempFile();
    const a = new JsonlAuditBus(file);
    const b = new JsonlAuditBus(file);
    const big = 'x'.repeat(70_000);
    for (let i = 0; i < 20; i += 1) {
      a.publish(ev(i, { who: 'a', big }));
      b.publish(ev(i, { who: 'b', big }));
    }
    a.close();
    b.close();
    const { events, problems } = await readAuditLog(file, { strict: true });
    expect(problems).toEqual([]);
    expect(events).toHaveLength(40);
  });

  it('fails with the file system’s error for a missing log', async () => {
    await expect(readAuditLog(join(root, 'nope.jsonl'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
