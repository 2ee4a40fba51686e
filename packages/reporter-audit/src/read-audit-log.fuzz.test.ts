// The audit log reader fed what an attacker could write: each line answers (an event or a
// reported problem), never throws into the caller, and never hangs.
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { controlTextArb, HOSTILE_RUN_PARAMETERS, hugeStringArb } from '@headway/protocol/testing';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { JsonlAuditBus } from './jsonl-audit-bus.js';
import { readAuditLog } from './read-audit-log.js';
import { SqliteAuditBus } from './sqlite-audit-bus.js';

const TEST_TIMEOUT = HOSTILE_RUN_PARAMETERS.interruptAfterTimeLimit + 5000;
const root = mkdtempSync(join(tmpdir(), 'headway-audit-hostile-'));
let n = 0;
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('audit read-back on hostile input', () => {
  it(
    'a SQLite and a JSONL bus give back every event published, however long or strange its text',
    async () => {
      const text = fc.oneof(hugeStringArb({ maxLength: 50_000 }), controlTextArb());
      const sqlite = new SqliteAuditBus(join(root, 'rt', 'audit.db'));
      const jsonlFile = join(root, 'rt', 'audit.jsonl');
      const jsonl = new JsonlAuditBus(jsonlFile);
      const published: unknown[] = [];
      fc.assert(
        fc.property(text, text, (a, b) => {
          const event = {
            eventType: 'agent.progress.update',
            category: 'agent',
            result: 'allow',
            sessionId: a.slice(0, 100),
            taskId: 't',
            timestamp: 1,
            detail: { label: a, pct: 1, nested: { b } },
          } as const;
          sqlite.publish(event);
          jsonl.publish(event);
          published.push(event);
        }),
        { ...HOSTILE_RUN_PARAMETERS, numRuns: 30 },
      );
      expect(sqlite.query({ limit: 1000 })).toHaveLength(published.length);
      jsonl.close();
      sqlite.close();
      const { events } = await readAuditLog(jsonlFile);
      expect(events).toHaveLength(published.length);
    },
    TEST_TIMEOUT,
  );

  it(
    'readAuditLog reports hostile lines as problems and never throws',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(
            fc.oneof(
              hugeStringArb({ maxLength: 20_000 }),
              controlTextArb(),
              fc.jsonValue().map((v) => JSON.stringify(v)),
            ),
            { maxLength: 5 },
          ),
          async (lines) => {
            const file = join(root, `lines-${(n += 1)}.jsonl`);
            writeFileSync(file, lines.join('\n'));
            const { problems } = await readAuditLog(file);
            expect(Array.isArray(problems)).toBe(true);
          },
        ),
        { ...HOSTILE_RUN_PARAMETERS, numRuns: 40 },
      );
    },
    TEST_TIMEOUT,
  );

  it('readAuditLog skips a line over maxLineLength without holding it, and reads on', async () => {
    const file = join(root, 'long.jsonl');
    const good = JSON.stringify({
      eventType: 'agent.progress.start',
      category: 'agent',
      result: 'allow',
      sessionId: 's',
      taskId: 't',
      timestamp: 1,
      detail: { task: 'x' },
    });
    writeFileSync(file, `${good}\n`);
    for (let i = 0; i < 8; i++) appendFileSync(file, 'a'.repeat(64 * 1024));
    appendFileSync(file, `\n${good}\n${'b'.repeat(300_000)}`);
    const { events, problems } = await readAuditLog(file, { maxLineLength: 100_000 });
    expect(events).toHaveLength(2);
    expect(problems.map((p) => p.message)).toEqual([
      `${file}:2: longer than 100000 characters (maxLineLength), skipped`,
      `${file}:4: longer than 100000 characters (maxLineLength), skipped`,
    ]);
    await expect(readAuditLog(file, { maxLineLength: 100_000, strict: true })).rejects.toMatchObject({ code: 'AUDIT_INVALID_LINE' });
  });
});
