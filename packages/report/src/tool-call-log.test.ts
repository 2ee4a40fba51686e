import { HeadwayError, createRedactor } from '@headway/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HOSTILE_RUN, HOSTILE_TEST_TIMEOUT, hostileFragmentString, withHostileHoles } from './hostile.test-util.js';
import { planLog } from './fixtures.test-util.js';
import { ReportError } from './report-error.js';
import { ToolCallLog, type ToolCallRecord } from './tool-call-log.js';

function errorOf(fn: () => unknown): ReportError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ReportError) return e;
    throw e;
  }
  throw new Error('expected a ReportError');
}

const call = (iteration: number, over: Partial<ToolCallRecord> = {}): ToolCallRecord => ({
  iteration,
  name: 'search',
  args: { query: `q${iteration}` },
  result: `result ${iteration}`,
  ok: true,
  durationMs: 10,
  ...over,
});

describe('ToolCallLog recording', () => {
  it('stores a call with redacted args cut to 200 characters of JSON and the first 500 characters of the result', () => {
    const log = new ToolCallLog();
    log.recordToolCall({
      iteration: 3,
      name: 'http_get',
      args: { url: 'https://api.example.com/v1/items', headers: { authorization: 'Bearer abcdefghijklmnop' }, note: 'x'.repeat(300) },
      result: `token=sk-${'a'.repeat(30)} ${'y'.repeat(600)}`,
      ok: true,
      durationMs: 120,
    });
    const [entry] = log.entries();
    expect(entry).toMatchObject({ kind: 'tool', iteration: 3, name: 'http_get', ok: true, durationMs: 120 });
    if (entry?.kind !== 'tool') throw new Error('expected a tool entry');
    expect(entry.args).toHaveLength(200);
    expect(entry.args.startsWith('{"url":"https://api.example.com/v1/items","headers":{"authorization":"[REDACTED]"},"note":"xxx')).toBe(
      true,
    );
    expect(entry.args.endsWith('x…')).toBe(true);
    expect(entry.resultBrief).toHaveLength(500);
    expect(entry.resultBrief.startsWith('token=sk-aaa')).toBe(true);
    expect(log.toolCallCount).toBe(1);
  });

  it('applies the configured redaction paths and censor', () => {
    const log = new ToolCallLog({ redact: { paths: ['user.email'], censor: '***' } });
    log.recordToolCall(call(1, { args: { user: { email: 'a@b.c', name: 'Ann' }, password: 'hunter2' } }));
    expect(log.entries()[0]).toMatchObject({ args: '{"user":{"email":"***","name":"Ann"},"password":"***"}' });
  });

  it('writes args the caller already redacted (argsRedacted: true) as they are, and redacts anything else once', () => {
    const log = new ToolCallLog();
    const redacted = createRedactor({})({ path: 'a.ts', password: 'hunter2' });
    log.recordToolCall(call(1, { args: redacted, argsRedacted: true }));
    // The caller's word is taken: a value it says is redacted is not walked again.
    log.recordToolCall(call(2, { args: { token: 'kept as given' }, argsRedacted: true }));
    for (const flag of [false, undefined, 'yes', 1])
      log.recordToolCall(call(3, { args: { password: 'hunter2' }, argsRedacted: flag as boolean }));
    const hostile = call(4);
    Object.defineProperty(hostile, 'argsRedacted', {
      get(): never {
        throw new Error('no');
      },
    });
    log.recordToolCall(hostile);
    expect(log.entries().map((e) => (e.kind === 'tool' ? e.args : e.text))).toEqual([
      '{"path":"a.ts","password":"[REDACTED]"}',
      '{"token":"kept as given"}',
      '{"password":"[REDACTED]"}',
      '{"password":"[REDACTED]"}',
      '{"password":"[REDACTED]"}',
      '{"password":"[REDACTED]"}',
      '[unreadable args]',
    ]);
  });

  it('keeps model text cut to 1000 characters and ignores blank text', () => {
    const log = new ToolCallLog();
    log.recordText({ iteration: 1, text: '   ' });
    log.recordText({ iteration: 2, text: `  ${'z'.repeat(1500)}  ` });
    expect(log.textCount).toBe(1);
    const [entry] = log.entries();
    expect(entry?.kind === 'text' ? entry.text.length : -1).toBe(1000);
  });

  it('never throws on values plain JavaScript can pass', () => {
    const log = new ToolCallLog();
    const circular: Record<string, unknown> = { a: 1 };
    circular.self = circular;
    const hostile = new Proxy(
      {},
      {
        ownKeys: () => {
          throw new Error('no');
        },
      },
    );
    const bad = { step: Number.NaN, name: 42, args: circular, result: hostile, ok: 'yes', durationMs: -5 } as unknown as ToolCallRecord;
    expect(() => {
      log.recordToolCall(bad);
      log.recordToolCall(call(2, { args: { n: 10n }, result: new Error('ENOENT: no such file'), ok: false }));
      log.recordText({ iteration: 3, text: undefined as unknown as string });
    }).not.toThrow();
    expect(log.entries()).toEqual([
      {
        kind: 'tool',
        iteration: 0,
        name: '42',
        args: '{"a":1,"self":"[Circular]"}',
        resultBrief: '"[unserializable]"',
        ok: false,
        durationMs: 0,
      },
      { kind: 'tool', iteration: 2, name: 'search', args: '{"n":"10"}', resultBrief: 'ENOENT: no such file', ok: false, durationMs: 10 },
      { kind: 'text', iteration: 3, text: 'undefined' },
    ]);
  });

  it("takes the given iteration, and the previous entry's when none is given", () => {
    const log = new ToolCallLog();
    log.recordText({ iteration: 2, text: 'Looking at the handler.' });
    log.recordToolCall({ iteration: 2, name: 'read', args: { path: 'a.ts' }, result: 'export {}', ok: true, durationMs: 5 });
    log.recordToolCall({ iteration: 4, name: 'read', args: { path: 'b.ts' }, result: '', ok: true, durationMs: 5 });
    log.recordText({ text: 'No iteration given: the previous one.' });
    expect(log.activityLog()).toEqual([
      '[iteration 2] (model) Looking at the handler.',
      '[iteration 2] read({"path":"a.ts"}) → export {}',
      '[iteration 4] read({"path":"b.ts"}) → (empty result)',
      '[iteration 4] (model) No iteration given: the previous one.',
    ]);
    expect(log.entries().map((e) => Object.keys(e))).toEqual([
      ['kind', 'iteration', 'text'],
      ['kind', 'iteration', 'name', 'args', 'resultBrief', 'ok', 'durationMs'],
      ['kind', 'iteration', 'name', 'args', 'resultBrief', 'ok', 'durationMs'],
      ['kind', 'iteration', 'text'],
    ]);
  });
});

describe('ToolCallLog bounds', () => {
  it('keeps the first and the most recent entries and counts the middle per tool', () => {
    const log = new ToolCallLog({ maxEntries: 6, keepFirst: 2 });
    log.recordText({ iteration: 0, text: 'Plan: 1. search 2. read' });
    for (let step = 1; step <= 20; step++) {
      const name = step % 3 === 0 ? 'read_file' : 'search';
      log.recordToolCall(
        call(step, { name, ok: step % 5 !== 0, result: step % 5 === 0 ? `timeout after 30s (step ${step})` : `ok ${step}` }),
      );
    }
    expect(log.toolCallCount).toBe(20);
    expect(log.entries().map((e) => e.iteration)).toEqual([0, 1, 17, 18, 19, 20]);
    expect(log.omitted).toEqual({
      entries: 15,
      toolCalls: 15,
      texts: 0,
      firstIteration: 2,
      lastIteration: 16,
      tools: [
        { name: 'search', calls: 10, failures: 2 },
        { name: 'read_file', calls: 5, failures: 1 },
      ],
      failureSamples: [
        expect.objectContaining({ iteration: 5, name: 'search', resultBrief: 'timeout after 30s (step 5)' }),
        expect.objectContaining({ iteration: 10, name: 'search' }),
        expect.objectContaining({ iteration: 15, name: 'read_file' }),
      ],
    });
    expect(log.activityLog(70)).toMatchInlineSnapshot(`
      [
        "[iteration 0] (model) Plan: 1. search 2. read",
        "[iteration 1] search({"query":"q1"}) → ok 1",
        "[iterations 2–16] 15 tool calls summarised: search ×10 (2 failed), re…",
        "[iteration 17] search({"query":"q17"}) → ok 17",
        "[iteration 18] read_file({"query":"q18"}) → ok 18",
        "[iteration 19] search({"query":"q19"}) → ok 19",
        "[iteration 20] search({"query":"q20"}) → failed: timeout after 30s (s…",
      ]
    `);
  });

  it('pools tools past 64 names and keeps only the 10 most recent failure samples', () => {
    const log = new ToolCallLog({ maxEntries: 2, keepFirst: 1 });
    for (let step = 0; step < 102; step++) log.recordToolCall(call(step, { name: `tool_${step}`, ok: false }));
    const omitted = log.omitted;
    expect(omitted?.tools).toHaveLength(64);
    expect(omitted?.otherTools).toEqual({ calls: 36, failures: 36 });
    expect(omitted?.failureSamples.map((f) => f.iteration)).toEqual([91, 92, 93, 94, 95, 96, 97, 98, 99, 100]);
  });

  it('does not keep a large result alive through its brief', () => {
    const log = new ToolCallLog();
    const big = 'r'.repeat(5_000_000);
    log.recordToolCall(call(1, { result: big }));
    // A detached brief serialises to its own 500 characters; nothing else to assert portably,
    // the retained-heap check lives in bench/report/tool-call-log.bench.ts.
    expect(JSON.stringify(log).length).toBeLessThan(1000);
  });

  it('rejects impossible options', () => {
    expect(errorOf(() => new ToolCallLog({ maxEntries: 1 })).code).toBe('REPORT_INVALID_OPTIONS');
    expect(errorOf(() => new ToolCallLog({ maxEntries: 10, keepFirst: 10 })).message).toBe(
      'ToolCallLog: keepFirst must be an integer from 1 to 9, got 10',
    );
  });
});

describe('ToolCallLog JSON', () => {
  const op = fc.oneof(
    fc.record({
      kind: fc.constant('tool' as const),
      name: fc.constantFrom('search', 'read', 'fetch'),
      q: fc.string({ maxLength: 300 }),
      ok: fc.boolean(),
    }),
    fc.record({ kind: fc.constant('text' as const), text: fc.string({ maxLength: 1200 }) }),
  );
  type Op = typeof op extends fc.Arbitrary<infer T> ? T : never;
  const apply = (log: ToolCallLog, o: Op, step: number): void => {
    if (o.kind === 'tool')
      log.recordToolCall({ iteration: step, name: o.name, args: { q: o.q }, result: o.q.repeat(3), ok: o.ok, durationMs: step });
    else log.recordText({ iteration: step, text: o.text });
  };

  it('restores to a log that goes on exactly like the original', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), fc.nat(40), fc.integer({ min: 2, max: 12 }), (ops, cut, maxEntries) => {
        const original = new ToolCallLog({ maxEntries });
        let restored = new ToolCallLog({ maxEntries });
        ops.forEach((o, i) => {
          apply(original, o, i);
          if (i === cut) restored = ToolCallLog.fromJSON(JSON.parse(JSON.stringify(restored)));
          apply(restored, o, i);
        });
        expect(restored.toJSON()).toEqual(original.toJSON());
        expect(restored.activityLog()).toEqual(original.activityLog());
        expect(ToolCallLog.fromJSON(JSON.parse(JSON.stringify(original))).toJSON()).toEqual(original.toJSON());
      }),
      { numRuns: 300 },
    );
  });

  it('loads state saved before the rename (step, firstStep, lastStep) and saves it with the new names', () => {
    // As ToolCallLog.toJSON() wrote it when the loop unit was called a step: maxEntries 4, keepFirst 1, 6 entries.
    const saved = {
      version: 1,
      maxEntries: 4,
      keepFirst: 1,
      toolCallCount: 5,
      textCount: 1,
      head: [{ kind: 'text', step: 1, text: 'Plan:\n1. Find verifyToken\n2. Check expiry handling' }],
      recent: [
        {
          kind: 'tool',
          step: 3,
          name: 'read_file',
          args: '{"path":"src/auth/jwt.ts"}',
          resultBrief: 'export function verifyToken',
          ok: true,
          durationMs: 8,
        },
        { kind: 'tool', step: 4, name: 'search', args: '{"query":"exp"}', resultBrief: '', ok: true, durationMs: 3 },
        { kind: 'tool', step: 4, name: 'read_file', args: '{"path":"src/admin.ts"}', resultBrief: 'EACCES', ok: false, durationMs: 1 },
      ],
      omitted: {
        entries: 2,
        toolCalls: 2,
        texts: 0,
        firstStep: 1,
        lastStep: 2,
        tools: [{ name: 'search', calls: 2, failures: 1 }],
        failureSamples: [
          { kind: 'tool', step: 2, name: 'search', args: '{"query":"auth"}', resultBrief: 'timeout', ok: false, durationMs: 30 },
        ],
      },
    };
    const log = ToolCallLog.fromJSON(JSON.parse(JSON.stringify(saved)));
    const restored = log.activityLog();
    expect(restored).toEqual([
      '[iteration 1] (model) Plan: 1. Find verifyToken 2. Check expiry handling',
      '[iterations 1–2] 2 tool calls summarised: search ×2 (1 failed)',
      '[iteration 3] read_file({"path":"src/auth/jwt.ts"}) → export function verifyToken',
      '[iteration 4] search({"query":"exp"}) → (empty result)',
      '[iteration 4] read_file({"path":"src/admin.ts"}) → failed: EACCES',
    ]);
    log.recordToolCall({ iteration: 5, name: 'search', args: { query: 'AuthError' }, result: 'src/errors.ts:3', ok: true, durationMs: 2 });
    const state = log.toJSON();
    expect(state.omitted).toMatchObject({ firstIteration: 1, lastIteration: 3 });
    expect(state.omitted?.failureSamples[0]).toMatchObject({ iteration: 2 });
    expect(JSON.stringify(state)).not.toMatch(/"(?:step|firstStep|lastStep)"/);
    expect(log.activityLog().at(-1)).toBe('[iteration 5] search({"query":"AuthError"}) → src/errors.ts:3');
    // Old and new entries side by side (a checkpoint's rows written before and after an upgrade).
    const mixed = { ...saved, recent: [saved.recent[0], { ...saved.recent[1], step: undefined, iteration: 4 }, saved.recent[2]] };
    expect(ToolCallLog.fromJSON(JSON.parse(JSON.stringify(mixed))).activityLog()).toEqual(restored);
    expect(errorOf(() => ToolCallLog.fromJSON({ ...saved, head: [{ kind: 'text', text: 'x' }] })).issues).toEqual([
      { path: 'head[0].iteration', message: 'invalid input: expected number, received undefined' },
    ]);
  });

  it('keeps its redaction settings across a restore', () => {
    const log = ToolCallLog.fromJSON(new ToolCallLog({ redact: { paths: ['pin'], censor: '#' } }).toJSON());
    log.recordToolCall(call(1, { args: { pin: 1234 } }));
    expect(log.entries()[0]).toMatchObject({ args: '{"pin":"#"}' });
  });

  it('names the offending path of a bad state', () => {
    const good = new ToolCallLog({ maxEntries: 4 });
    good.recordToolCall(call(1));
    const state = JSON.parse(JSON.stringify(good)) as Record<string, unknown> & { head: Record<string, unknown>[] };
    state.head[0] = { ...state.head[0], ok: 'yes', resultBrief: 'x'.repeat(501) };
    const error = errorOf(() => ToolCallLog.fromJSON(state));
    expect(error.code).toBe('REPORT_INVALID_LOG_STATE');
    expect(error.message).toBe(
      'Invalid tool-call log state: head[0].resultBrief: too big: expected string to have <=500 characters; head[0].ok: invalid input: expected boolean, received string',
    );
    expect(errorOf(() => ToolCallLog.fromJSON({ ...good.toJSON(), toolCallCount: 7 })).issues).toEqual([
      { path: 'toolCallCount', message: 'is 7 but the log holds 1 tool calls' },
    ]);
    expect(errorOf(() => ToolCallLog.fromJSON({ ...good.toJSON(), redact: { paths: ['a..b'] } })).issues[0]?.path).toBe('redact.paths');
  });

  it('lists at most 20 issues of a bad state, then how many more', () => {
    const state = {
      ...new ToolCallLog({ maxEntries: 400 }).toJSON(),
      recent: Array.from({ length: 300 }, () => ({ kind: 'text', iteration: -1, text: 7 })),
    };
    const error = errorOf(() => ToolCallLog.fromJSON(state));
    expect(error.issues).toHaveLength(21);
    expect(error.issues[20]?.message).toMatch(/^and \d+ more issues$/);
    expect(error.message.length).toBeLessThan(3_000);
    // 300 bad entries of 2 issues each: every one is counted.
    expect(error.issues[20]?.message).toBe('and 580 more issues');
    expect(errorOf(() => ToolCallLog.fromJSON({ ...state, maxEntries: 4 })).message).toBe(
      'Invalid tool-call log state: recent: head and recent hold 300 entries, more than 4',
    );
  });

  it('stops validating after 1,000 bad entries and says the count is a floor, and where it stopped', () => {
    const bad = { kind: 'text', iteration: -1, text: 7 };
    const good = new ToolCallLog({ maxEntries: 10 });
    good.recordText({ iteration: 1, text: 'fine' });
    const goodEntry = good.toJSON().head[0];
    const state = {
      ...new ToolCallLog({ maxEntries: 5_000 }).toJSON(),
      head: [goodEntry, bad],
      recent: [...Array.from({ length: 2_500 }, () => bad), goodEntry],
    };
    const error = errorOf(() => ToolCallLog.fromJSON(state));
    expect(error.issues).toHaveLength(21);
    expect(error.issues[0]).toEqual({ path: 'head[1].iteration', message: 'too small: expected number to be >=0' });
    expect(error.issues[2]?.path).toBe('recent[0].iteration');
    // 1,000 bad entries of 2 issues: 20 kept, 1,980 counted; head's 2 and recent's first 999 were checked.
    expect(error.issues[20]).toEqual({
      path: '',
      message: 'and at least 1980 more issues (validation stopped after 1001 of 2503 entries)',
    });
    // Exactly 1,000 bad entries, all checked: an exact count.
    const exact = errorOf(() => ToolCallLog.fromJSON({ ...state, head: [], recent: Array.from({ length: 1_000 }, () => bad) }));
    expect(exact.issues[20]?.message).toBe('and 1980 more issues');
  });

  it(
    'restores any saved state or throws REPORT_INVALID_LOG_STATE, with hostile values inside (property, time-limited)',
    async () => {
      const saved = fc
        // Short hostile text: long arguments would measure the redactor of @headway/protocol, not this parser.
        .array(fc.tuple(fc.nat(3), hostileFragmentString), { maxLength: 6 })
        .map((parts) => {
          const log = new ToolCallLog({ maxEntries: 4 });
          for (const [i, [kind, text]] of parts.entries()) {
            if (kind === 0) log.recordText({ iteration: i + 1, text });
            else
              log.recordToolCall({
                iteration: i + 1,
                name: text.slice(0, 50) || 'tool',
                args: { text },
                result: text,
                ok: kind === 1,
                durationMs: i,
              });
          }
          return JSON.parse(JSON.stringify(log)) as unknown;
        });
      await fc.assert(
        fc.asyncProperty(withHostileHoles(saved), async (state) => {
          try {
            const log = ToolCallLog.fromJSON(state());
            expect(ToolCallLog.fromJSON(log.toJSON()).toJSON()).toEqual(log.toJSON());
          } catch (e) {
            expect(HeadwayError.isInstance(e, 'REPORT_INVALID_LOG_STATE')).toBe(true);
            expect((e as HeadwayError).issues.length).toBeLessThanOrEqual(21);
          }
          await Promise.resolve();
        }),
        { ...HOSTILE_RUN, numRuns: 60 },
      );
    },
    HOSTILE_TEST_TIMEOUT,
  );

  it('throws nothing but REPORT_INVALID_LOG_STATE, whatever the input', () => {
    fc.assert(
      fc.property(fc.anything(), (input) => {
        try {
          ToolCallLog.fromJSON(input);
        } catch (e) {
          expect(HeadwayError.isInstance(e, 'REPORT_INVALID_LOG_STATE')).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('ToolCallLog plan', () => {
  it('ignores a plan that does not validate and keeps the plan through toJSON / fromJSON', () => {
    const log = planLog();
    expect(log.recordPlan([])).toBe(false);
    expect(log.recordPlan([{ text: 'x', status: 'done' as 'completed' }])).toBe(false);
    expect(log.recordPlan(Array.from({ length: 10_000 }, () => ({ text: 'x', status: 'pending' as const })))).toBe(false);
    const copy = ToolCallLog.fromJSON(JSON.parse(JSON.stringify(log)));
    expect(copy.plan?.map((i) => i.status)).toEqual(['completed', 'in_progress', 'pending']);
    expect(() => ToolCallLog.fromJSON({ ...log.toJSON(), plan: [] })).toThrow(/plan/);
  });
});
