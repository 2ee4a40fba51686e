import { redactString, type ProgressEvent } from '@headway/protocol';
import { secretArb } from '@headway/protocol/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { plainEventText } from './plain-lines.js';

/** The reporter's redaction with a censor of its own (`toolResultPreview`'s is `[REDACTED]`). */
const redact = (text: string): string => redactString(text, '<hidden>');

/** Preview text: plain, with a secret somewhere (past the cut, too), or hostile characters. */
const previewArb = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc
    .tuple(fc.string({ maxLength: 120 }), secretArb, fc.string({ maxLength: 40 }))
    .map(([before, { text }, after]) => `${before} ${text} ${after}`),
  fc.string({ unit: 'binary', maxLength: 200 }),
);

const eventArb: fc.Arbitrary<ProgressEvent> = fc.oneof(
  fc.record({
    type: fc.constant('tool.completed' as const),
    toolName: fc.constantFrom('noop', 'file_read', 'shell'),
    durationMs: fc.double({ min: 0, max: 1e6, noNaN: true }),
    ok: fc.boolean(),
    preview: previewArb,
    runId: fc.constant('run-1'),
    seq: fc.nat(),
    ts: fc.nat(),
  }),
  fc.record({
    type: fc.constant('intermediate.result' as const),
    content: previewArb,
    runId: fc.constant('run-1'),
    seq: fc.nat(),
    ts: fc.nat(),
  }),
);

/** How the plain reporter made its text before it passed the redaction in: a copy of the event with the preview redacted. */
function copiedThenRendered(event: ProgressEvent, previewLength: number): string | undefined {
  if (event.type === 'tool.completed' && event.preview !== undefined)
    return plainEventText({ ...event, preview: redact(event.preview) }, previewLength);
  if (event.type === 'intermediate.result') return plainEventText({ ...event, content: redact(event.content) }, previewLength);
  return plainEventText(event, previewLength);
}

describe('plainEventText', () => {
  it('redacts a preview in place exactly as rendering a redacted copy of the event did', () => {
    fc.assert(
      fc.property(eventArb, fc.integer({ min: 1, max: 120 }), (event, previewLength) => {
        expect(plainEventText(event, previewLength, redact)).toBe(copiedThenRendered(event, previewLength));
      }),
      { numRuns: 500 },
    );
  });

  it('redacts before the preview is cut, so no part of a secret past the cut is printed', () => {
    const secret = 'sk-proj-Zx81KfPq0LmN3vB7tY2wR5sU9hJ4gD6c';
    const event: ProgressEvent = {
      type: 'tool.completed',
      toolName: 'http_get',
      durationMs: 12,
      ok: true,
      preview: `${'x'.repeat(70)} ${secret}`,
      runId: 'run-1',
      seq: 4,
      ts: 0,
    };
    expect(plainEventText(event, 80, redact)).toBe(`  [progress] Tool: http_get done — ok in 12ms: ${'x'.repeat(70)} <hidden>`);
    // Without it, only the preview's own redaction applies, with its own censor.
    expect(plainEventText(event, 80)).toBe(`  [progress] Tool: http_get done — ok in 12ms: ${'x'.repeat(70)} [REDAC...`);
  });
});
