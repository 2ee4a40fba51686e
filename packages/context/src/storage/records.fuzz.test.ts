import { HeadwayError } from '@headway/protocol';
import { HOSTILE_RUN_PARAMETERS, HOSTILE_TEST_TIMEOUT, controlTextArb, hostileValueArb, hugeStringArb } from '@headway/protocol/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyseAttention } from '../attention/attention.js';
import { Learnings } from '../memory/learnings.js';
import { MemorySynthesizer } from '../memory/memory-synthesizer.js';
import { Playbook } from '../playbook/playbook.js';
import { consolidateMessages } from '../window/consolidate.js';
import { MemoryContextStore } from './context-store.js';
import { learningSchema, parseStoredRecord, playbookPatternSchema } from './records.js';

/** A stored record as an attacker (or a torn write) could leave it: any value, or any text. */
const storedArb = fc.oneof(
  hostileValueArb(),
  hugeStringArb(),
  controlTextArb(),
  fc.json(),
  hostileValueArb().map((v) => safeJson(v)),
);

function safeJson(value: unknown): string {
  try {
    const json = JSON.stringify(value) as string | undefined;
    return json ?? 'null';
  } catch {
    return '{';
  }
}

describe('stored data is hostile', () => {
  it(
    'parseStoredRecord returns a record or throws CONTEXT_CORRUPT_STORE, nothing else (property, time-limited)',
    () => {
      fc.assert(
        fc.property(storedArb, (value) => {
          for (const [kind, schema] of [
            ['playbook', playbookPatternSchema],
            ['learnings', learningSchema],
          ] as const) {
            try {
              parseStoredRecord(kind, schema as never, value, 'record 0');
            } catch (error) {
              expect(HeadwayError.isInstance(error, 'CONTEXT_CORRUPT_STORE')).toBe(true);
              expect((error as Error).message.length).toBeLessThan(2000);
            }
          }
        }),
        HOSTILE_RUN_PARAMETERS,
      );
    },
    HOSTILE_TEST_TIMEOUT,
  );

  it(
    'a playbook and learnings over hostile records never throw and report at most once each (property, time-limited)',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(storedArb, { maxLength: 5 }), async (rows) => {
          const store = new MemoryContextStore();
          rows.forEach((row, i) => {
            store.putRaw('playbook', `p${i}`, row);
            store.putRaw('learnings', `l${i}`, row);
          });
          const reports: string[] = [];
          const onInternalError = (_e: unknown, { where }: { where: string }): void => void reports.push(where);
          const playbook = new Playbook({ store, onInternalError });
          await playbook.getRelevant('Fix the bug');
          await playbook.stats('Fix the bug');
          await new Learnings({ store, onInternalError }).all();
          expect(reports.filter((w) => w === 'context.playbook.store').length).toBeLessThanOrEqual(1);
          expect(reports.filter((w) => w === 'context.learnings.store').length).toBeLessThanOrEqual(1);
        }),
        HOSTILE_RUN_PARAMETERS,
      );
    },
    HOSTILE_TEST_TIMEOUT,
  );

  it(
    'attention, consolidation and the synthesizer take huge and control-character text in bounded time (property, time-limited)',
    () => {
      const text = fc.oneof(hugeStringArb(), controlTextArb(), fc.string());
      fc.assert(
        fc.property(text, text, (a, b) => {
          analyseAttention(a, { tools: [{ name: 'x_y', description: b }] });
          consolidateMessages([
            { role: 'system', content: a },
            { role: 'user', content: b },
            { role: 'assistant', content: a, toolCalls: [{ id: '1', name: 'x', args: b }] },
            { role: 'tool', toolCallId: '1', name: 'x', content: b },
            ...Array.from({ length: 4 }, () => ({ role: 'user' as const, content: a })),
          ]);
          new MemorySynthesizer().synthesize(
            a,
            [b],
            [
              { source: 'learnings', text: b },
              { source: 'summaries', text: a },
            ],
          );
        }),
        HOSTILE_RUN_PARAMETERS,
      );
    },
    HOSTILE_TEST_TIMEOUT,
  );
});
