import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { eventArb } from './arbitraries.test-util.js';
import { HeadwayError } from './headway-error.js';
import { parseProgressEvent, parseProgressEventJson } from './parse-progress-event.js';
import { MAX_PLAN_ITEMS } from './plan-limits.js';
import { ProtocolError } from './protocol-error.js';
import { checkProgressEventLite } from './validate-lite.js';

function errorOf(fn: () => unknown): ProtocolError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ProtocolError) return e;
    throw e;
  }
  throw new Error('expected a ProtocolError');
}

describe('parseProgressEvent', () => {
  it('accepts a plan and refuses an empty one, duplicate ids, unknown statuses and over-long plans, naming where', () => {
    const base = { type: 'plan.updated', runId: 'r', seq: 1, ts: 0 };
    const plan = {
      ...base,
      items: [
        { id: 'a', text: 'Read the spec', status: 'completed' },
        { text: 'Write the parser', status: 'in_progress', extra: 1 },
      ],
    };
    expect(parseProgressEvent(plan)).toEqual({ ...base, items: [plan.items[0], { text: 'Write the parser', status: 'in_progress' }] });
    expect(checkProgressEventLite(plan)).toEqual({ success: true, data: parseProgressEvent(plan) });
    const bad: [unknown[], string][] = [
      [[], 'items'],
      [
        [
          { id: 'a', text: 'x', status: 'pending' },
          { id: 'a', text: 'y', status: 'pending' },
        ],
        'items.1.id',
      ],
      [[{ text: 'x', status: 'done' }], 'items.0.status'],
      [[{ text: '', status: 'pending' }], 'items.0.text'],
      [Array.from({ length: MAX_PLAN_ITEMS + 1 }, (_, i) => ({ text: `step ${i}`, status: 'pending' })), 'items'],
    ];
    for (const [items, path] of bad) {
      // zod's paths index with brackets, the lite checker with dots.
      expect(errorOf(() => parseProgressEvent({ ...base, items })).issues[0]?.path).toBe(path.replace(/\.(\d+)/g, '[$1]'));
      const lite = checkProgressEventLite({ ...base, items });
      expect(lite.success ? '' : lite.issues[0]?.path).toBe(path);
    }
  });

  it('keeps the model-call facts of step events and the budgets of run.started', () => {
    const started = {
      type: 'run.started',
      runId: 'r',
      seq: 1,
      ts: 0,
      agentName: 'a',
      sessionId: 's',
      limits: { iterations: 10, time: 60_000, cost: 0.5 },
    };
    expect(parseProgressEvent(started)).toEqual(started);
    const call = { type: 'step.started', runId: 'r', seq: 2, ts: 1, step: 'llm-1', provider: 'openai', model: 'gpt-4o' };
    expect(parseProgressEvent(call)).toEqual(call);
    const done = {
      type: 'step.finished',
      runId: 'r',
      seq: 3,
      ts: 2,
      step: 'llm-1',
      durationMs: 1,
      usage: { inputTokens: 12, outputTokens: 3 },
      finishReason: 'tool_calls',
      costUsd: 0.001,
    };
    expect(parseProgressEvent(done)).toEqual(done);
    // Old events without them still parse: the fields are optional.
    expect(parseProgressEvent({ type: 'step.finished', runId: 'r', seq: 3, ts: 2, step: 'llm-1', durationMs: 1 })).not.toHaveProperty(
      'usage',
    );
    expect(errorOf(() => parseProgressEvent({ ...done, usage: { inputTokens: -1, outputTokens: 3 } })).message).toContain(
      'usage.inputTokens',
    );
  });

  it('returns a JSON round-tripped event equal to the original', () => {
    fc.assert(
      fc.property(eventArb, (event) => {
        expect(parseProgressEvent(JSON.parse(JSON.stringify(event)))).toStrictEqual(JSON.parse(JSON.stringify(event)));
        expect(parseProgressEvent(JSON.parse(JSON.stringify(event)))).toEqual(event);
      }),
      { numRuns: 500 },
    );
  });

  it('throws nothing but ProtocolError, whatever the input', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.anything(),
          eventArb.map((e) => ({ ...e, seq: -1 })),
        ),
        (input) => {
          try {
            parseProgressEvent(input);
          } catch (e) {
            expect(HeadwayError.isInstance(e, 'PROTOCOL_INVALID_EVENT')).toBe(true);
          }
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('names the offending path and the event type', () => {
    const error = errorOf(() =>
      parseProgressEvent({ type: 'tool.completed', runId: 'r', seq: 3, ts: 1, toolName: 'grep', durationMs: '12', ok: true }),
    );
    expect(error.code).toBe('PROTOCOL_INVALID_EVENT');
    expect(error.message).toBe(
      'Invalid progress event (type "tool.completed"): durationMs: invalid input: expected number, received string',
    );
    expect(error.issues).toEqual([{ path: 'durationMs', message: 'invalid input: expected number, received string' }]);
  });

  it('names nested paths inside a report', () => {
    const error = errorOf(() =>
      parseProgressEvent({
        type: 'report.generated',
        runId: 'r',
        seq: 1,
        ts: 1,
        report: {
          task: 't',
          reason: 'max-iterations',
          completedWork: ['a', 3],
          keyFindings: [],
          attemptedInconclusive: [],
          remaining: [],
          suggestedNextSteps: [],
          stats: { iterations: -1, toolCalls: 0, elapsedMs: 0 },
          generatedBy: 'model',
        },
      }),
    );
    expect(error.issues.map((i) => i.path)).toEqual(['report.completedWork[1]', 'report.stats.iterations']);
  });

  it('rejects an unknown type, a bad envelope and non-objects', () => {
    expect(errorOf(() => parseProgressEvent({ type: 'run.exploded', runId: 'r', seq: 1, ts: 1 })).issues[0]?.path).toBe('type');
    expect(
      errorOf(() => parseProgressEvent({ type: 'thinking', runId: '', seq: 0, ts: 1, content: '' })).issues.map((i) => i.path),
    ).toEqual(['runId', 'seq']);
    expect(errorOf(() => parseProgressEvent(null)).message).toMatch(/^Invalid progress event: \(root\): /);
    expect(errorOf(() => parseProgressEvent({ type: 'progress', runId: 'r', seq: 1, ts: 1, percent: 101 })).issues[0]?.path).toBe(
      'percent',
    );
    expect(errorOf(() => parseProgressEvent({ type: 'progress', runId: 'r', seq: 1, ts: 1, percent: Number.NaN })).issues[0]?.path).toBe(
      'percent',
    );
  });

  it('rejects explicit undefined for optional fields rather than passing it on', () => {
    expect(() => parseProgressEvent({ type: 'run.started', runId: 'r', seq: 1, ts: 1, agentName: 'a', task: undefined })).toThrow(
      ProtocolError,
    );
  });

  it('drops unknown keys', () => {
    expect(parseProgressEvent({ type: 'text.delta', runId: 'r', seq: 1, ts: 1, text: 'hi', extra: true })).toEqual({
      type: 'text.delta',
      runId: 'r',
      seq: 1,
      ts: 1,
      text: 'hi',
    });
  });

  it('turns hostile objects into a ProtocolError', () => {
    const hostile = new Proxy(
      {},
      {
        get() {
          throw new Error('boom');
        },
        getPrototypeOf() {
          throw new Error('boom');
        },
      },
    );
    expect(errorOf(() => parseProgressEvent(hostile)).code).toBe('PROTOCOL_INVALID_EVENT');
  });
});

describe('parseProgressEventJson', () => {
  it('parses a line and reports text that is not JSON', () => {
    expect(parseProgressEventJson('{"type":"thinking","runId":"r","seq":2,"ts":5,"content":"hm"}').type).toBe('thinking');
    expect(errorOf(() => parseProgressEventJson('{"type":')).message).toMatch(/^Invalid progress event: not JSON/);
  });
});

describe('parseProgressEventJson: bounded', () => {
  it('rejects text over the cap before parsing it, with an error that states the cap', () => {
    const error = errorOf(() => parseProgressEventJson(`"${'a'.repeat(4 * 1024 * 1024)}"`));
    expect(error.code).toBe('PROTOCOL_INPUT_TOO_LARGE');
    expect(error.message).toBe('Progress event JSON is 4194306 characters, over the limit of 4194304 (maxLength); not parsed');
    const small = errorOf(() =>
      parseProgressEventJson('{"type":"thinking","runId":"r","seq":1,"ts":1,"content":"abc"}', { maxLength: 20 }),
    );
    expect(small.code).toBe('PROTOCOL_INPUT_TOO_LARGE');
    expect(small.message).toContain('over the limit of 20 (maxLength)');
  });

  it('names the first 20 of a million problems and counts the rest', () => {
    const line = JSON.stringify({
      type: 'report.generated',
      runId: 'r',
      seq: 1,
      ts: 1,
      report: { completedWork: new Array<number>(1_000_000).fill(1) },
    });
    expect(line.length).toBeGreaterThan(2_000_000);
    const error = errorOf(() => parseProgressEventJson(line));
    expect(error.code).toBe('PROTOCOL_INVALID_EVENT');
    expect(error.message.length).toBeLessThan(3000);
    expect(error.message).toMatch(
      /^Invalid progress event \(type "report\.generated"\): report\.completedWork\[0\]: invalid input: expected string, received number; /,
    );
    expect(error.message).toMatch(/; and 999980 more$/);
    expect(error.issues).toHaveLength(100);
  }, 30_000);

  it('counts the rest of a handful of problems too', () => {
    const error = errorOf(() =>
      parseProgressEvent({ type: 'report.generated', runId: '', seq: 0, ts: -1, report: { completedWork: new Array(30).fill(1) } }),
    );
    expect(error.message).toMatch(/; and \d+ more$/);
    expect(error.issues.length).toBeGreaterThan(20);
  });
});
