import { parseProgressEvent, type ProgressEvent } from '@headway/protocol';
import { describe, expect, it } from 'vitest';
import { fitEventJson } from './fit-event.js';

const envelope = { runId: 'r', seq: 3, ts: 1 };
const fit = (event: ProgressEvent, max: number) => fitEventJson(event, JSON.stringify(event), max);

describe('fitEventJson', () => {
  it('leaves an event that fits as it is', () => {
    const event: ProgressEvent = { type: 'run.finished', durationMs: 5, outcome: 'completed', summary: 'ok', ...envelope };
    expect(fit(event, 1000)).toEqual({ kind: 'whole', json: JSON.stringify(event) });
  });

  it('cuts a long summary with a visible marker and keeps every other field', () => {
    const event: ProgressEvent = {
      type: 'run.finished',
      durationMs: 5,
      outcome: 'limit',
      summary: `Done: ${'x'.repeat(5000)}`,
      ...envelope,
    };
    const fitted = fit(event, 1000);
    expect(fitted.kind).toBe('truncated');
    if (fitted.kind !== 'truncated') return;
    expect(fitted.from).toBe(JSON.stringify(event).length);
    expect(fitted.json.length).toBeLessThanOrEqual(1000);
    const back = parseProgressEvent(JSON.parse(fitted.json)) as ProgressEvent & { summary: string };
    expect(back).toMatchObject({ type: 'run.finished', durationMs: 5, outcome: 'limit', ...envelope });
    expect(back.summary).toMatch(/^Done: x+… \[truncated: 5,006 characters\]$/);
  });

  it('fits text whose JSON escapes are six times its length (control characters)', () => {
    const event: ProgressEvent = { type: 'run.error', error: '\u0001'.repeat(10_000), ...envelope };
    const fitted = fit(event, 2000);
    expect(fitted.kind).toBe('truncated');
    if (fitted.kind === 'truncated') expect(fitted.json.length).toBeLessThanOrEqual(2000);
  });

  it('a terminal event with a large value that is no string keeps its envelope and small fields', () => {
    const event = {
      type: 'run.finished',
      durationMs: 5,
      outcome: 'completed',
      extra: Array.from({ length: 10_000 }, (_, i) => i),
      ...envelope,
    };
    const fitted = fit(event as ProgressEvent, 500);
    expect(fitted).toEqual({
      kind: 'truncated',
      json: JSON.stringify({ type: 'run.finished', durationMs: 5, outcome: 'completed', ...envelope }),
      from: JSON.stringify(event).length,
    });
  });

  it('a terminal event keeps its envelope when its large value is no string (an array of short strings cannot be cut)', () => {
    const event = { type: 'run.cancelled', reason: Array.from({ length: 10_000 }, () => 'ab'), ...envelope };
    expect(fit(event as unknown as ProgressEvent, 500)).toMatchObject({
      kind: 'truncated',
      json: JSON.stringify({ type: 'run.cancelled', ...envelope }),
    });
  });

  it('a terminal event whose JSON cannot be made valid still ends the run, as a run.error saying why', () => {
    // A hostile outcome: cut, it is no longer one of the outcomes.
    const event = { type: 'run.finished', durationMs: 5, outcome: 'x'.repeat(10_000), ...envelope };
    const fitted = fit(event as unknown as ProgressEvent, 500);
    expect(fitted.kind).toBe('truncated');
    if (fitted.kind !== 'truncated') return;
    expect(JSON.parse(fitted.json)).toEqual({
      type: 'run.error',
      error: "the run's last event (run.finished, 10,078 characters of JSON) was too large to store and not valid once cut",
      ...envelope,
    });
  });

  it('a non-terminal event that cannot be cut to fit is oversized (not written), never a broken event', () => {
    const event: ProgressEvent = { type: 'tool.executing', toolName: 'x', args: Array.from({ length: 10_000 }, (_, i) => i), ...envelope };
    expect(fit(event, 500)).toEqual({ kind: 'oversized', from: JSON.stringify(event).length });
  });
});
