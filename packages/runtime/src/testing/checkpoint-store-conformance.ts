// Over 300 lines on purpose: one suite, one `it` per behaviour of the interface; splitting it
// would scatter the contract a store author reads top to bottom.
// The behaviour every CheckpointStore must have. Each store's test file calls
// `checkpointStoreConformance` with a factory; a new backend (Postgres, …) passes when it
// runs this suite unchanged.
import { ManualClock } from '@headway/protocol';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { errorCodeOf as codeOf } from './error-code.js';
import type { CheckpointInit, CheckpointState, CheckpointUpdate, CheckpointToolCall } from '../checkpoint/checkpoint.js';
import type { CheckpointStore } from '../checkpoint/checkpoint-store.js';
import { scanForRecovery } from '../checkpoint/recovery.js';
import { checkpointRunInfo } from '../checkpoint/run-state-codec.js';

/** A store under test, on a clock the suite controls. */
export interface CheckpointStoreHandle {
  store: CheckpointStore;
  /** Closes the store and opens it again on the same data; absent for non-durable stores. */
  reopen?: () => Promise<CheckpointStore> | CheckpointStore;
  cleanup?: () => Promise<void> | void;
}

/**
 * Makes a fresh, empty store whose timestamps come from `now`: build it with
 * `clock: { ...systemClock, now }`.
 */
export type CheckpointStoreFactory = (now: () => number) => Promise<CheckpointStoreHandle> | CheckpointStoreHandle;

/** A checkpoint state for tests, with `overrides`. */
export function checkpointState(overrides: Partial<CheckpointState> = {}): CheckpointState {
  return { iteration: 0, toolsUsed: [], usage: { inputTokens: 0, outputTokens: 0 }, spentUsd: 0, providerCalls: 0, ...overrides };
}

/** A checkpoint's first write for tests, with `overrides`. */
export function checkpointInit(id: string, overrides: Partial<CheckpointInit> = {}): CheckpointInit {
  return {
    id,
    runId: `run-${id}`,
    sessionId: 'session-1',
    taskId: 'task-1',
    input: 'Summarize the README',
    state: checkpointState(),
    ...overrides,
  };
}

/**
 * Round `i` of a run for tests: two messages and a log entry appended, the state at iteration
 * `i`, the tool calls cleared.
 */
export function checkpointRound(i: number): CheckpointUpdate {
  return {
    appendMessages: [
      { role: 'assistant', i },
      { role: 'tool', i },
    ],
    appendLog: [{ i }],
    state: checkpointState({ iteration: i }),
    clearToolCalls: true,
  };
}

function started(toolCallId: string, index: number, name = 'file_read'): CheckpointToolCall {
  return { toolCallId, name, args: { path: `f${index}.txt` }, index, status: 'started' };
}

function finished(toolCallId: string, index: number, result: unknown, ok = true): CheckpointToolCall {
  return { ...started(toolCallId, index), status: 'finished', ok, result, durationMs: 7 + index };
}

// Stores may throw synchronously or reject: this turns either into a rejection.
function later(fn: () => unknown): Promise<unknown> {
  return Promise.resolve().then(fn);
}

const jsonValue = fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.parse(JSON.stringify(v)) as unknown);

/** The behaviour every `CheckpointStore` must have, as a vitest suite run against stores made by `factory`. */
export function checkpointStoreConformance(name: string, factory: CheckpointStoreFactory): void {
  describe(`${name} (CheckpointStore conformance)`, () => {
    let t = 1_000;
    const now = (): number => t;
    let handle: CheckpointStoreHandle;
    const open = async (): Promise<CheckpointStore> => {
      t = 1_000;
      handle = await factory(now);
      return handle.store;
    };
    afterEach(async () => {
      await handle.cleanup?.();
    });

    it('creates a running checkpoint and reads it back exactly', async () => {
      const store = await open();
      await store.create(
        checkpointInit('cp-1', {
          messages: [
            { role: 'system', content: 'be brief' },
            { role: 'user', content: 'hi' },
          ],
          log: [{ iteration: 0 }],
          lastSeq: 3,
        }),
      );
      expect(await store.load('cp-1')).toEqual({
        id: 'cp-1',
        runId: 'run-cp-1',
        sessionId: 'session-1',
        taskId: 'task-1',
        input: 'Summarize the README',
        status: 'running',
        iteration: 0,
        createdAt: 1_000,
        updatedAt: 1_000,
        state: checkpointState(),
        messages: [
          { role: 'system', content: 'be brief' },
          { role: 'user', content: 'hi' },
        ],
        log: [{ iteration: 0 }],
        toolCalls: [],
        lastSeq: 3,
      });
      expect(await store.load('nope')).toBeUndefined();
    });

    it('appends messages and log entries in order and replaces the state', async () => {
      const store = await open();
      await store.create(checkpointInit('cp-1', { messages: ['m0'] }));
      t = 2_000;
      await store.update('cp-1', {
        appendMessages: ['m1', 'm2'],
        appendLog: ['l0'],
        state: checkpointState({ iteration: 1, toolsUsed: ['a'], tracker: { percent: 12 } }),
      });
      t = 3_000;
      await store.update('cp-1', {
        appendMessages: [{ m: 3 }],
        appendLog: ['l1', 'l2'],
        state: checkpointState({ iteration: 2, toolsUsed: ['a', 'b'], spentUsd: 0.5 }),
      });
      const cp = await store.load('cp-1');
      expect(cp?.messages).toEqual(['m0', 'm1', 'm2', { m: 3 }]);
      expect(cp?.log).toEqual(['l0', 'l1', 'l2']);
      expect(cp?.state).toEqual(checkpointState({ iteration: 2, toolsUsed: ['a', 'b'], spentUsd: 0.5 }));
      expect(cp?.iteration).toBe(2);
      expect(cp?.createdAt).toBe(1_000);
      expect(cp?.updatedAt).toBe(3_000);
    });

    it('keeps the statuses of the round in flight, replaced by id, in call order, until cleared', async () => {
      const store = await open();
      await store.create(checkpointInit('cp-1'));
      await store.update('cp-1', {
        appendMessages: ['assistant asks for 3 tools'],
        toolCalls: [started('c2', 2), started('c0', 0), started('c1', 1)],
      });
      await store.update('cp-1', { toolCalls: [finished('c1', 1, { rows: 15 })] });
      await store.update('cp-1', { toolCalls: [finished('c0', 0, 'boom', false)] });
      expect((await store.load('cp-1'))?.toolCalls).toEqual([
        finished('c0', 0, 'boom', false),
        finished('c1', 1, { rows: 15 }),
        started('c2', 2),
      ]);
      const pending: CheckpointToolCall = { toolCallId: 'd1', name: 'grep', args: null, index: 1, status: 'pending' };
      await store.update('cp-1', { clearToolCalls: true, toolCalls: [pending, started('d0', 0)] });
      expect((await store.load('cp-1'))?.toolCalls).toEqual([started('d0', 0), pending]);
      await store.update('cp-1', { clearToolCalls: true });
      expect((await store.load('cp-1'))?.toolCalls).toEqual([]);
    });

    it('moves lastSeq forward only', async () => {
      const store = await open();
      await store.create(checkpointInit('cp-1'));
      await store.update('cp-1', { lastSeq: 10 });
      await store.update('cp-1', { lastSeq: 7 });
      expect((await store.load('cp-1'))?.lastSeq).toBe(10);
    });

    it('rejects a stale writer with CHECKPOINT_CONFLICT and changes nothing', async () => {
      const store = await open();
      await store.create(checkpointInit('cp-1', { messages: ['m0'] }));
      await store.update('cp-1', { expect: { messages: 1, log: 0 }, appendMessages: ['m1'], appendLog: ['l0'] });
      expect(await codeOf(() => store.update('cp-1', { expect: { messages: 1, log: 0 }, appendMessages: ['again'] }))).toBe(
        'CHECKPOINT_CONFLICT',
      );
      await store.update('cp-1', { expect: { messages: 2, log: 1 }, appendMessages: ['m2'] });
      expect((await store.load('cp-1'))?.messages).toEqual(['m0', 'm1', 'm2']);
    });

    it('rejects what is not plain JSON, naming where, and writes none of it', async () => {
      const store = await open();
      await store.create(checkpointInit('cp-1'));
      const circular: Record<string, unknown> = {};
      circular.self = circular;
      await expect(later(() => store.update('cp-1', { appendMessages: ['ok', 10n] }))).rejects.toThrow(/update\.appendMessages\[1\]/);
      await expect(later(() => store.update('cp-1', { appendLog: [circular] }))).rejects.toThrow(/update\.appendLog\[0\]/);
      await expect(later(() => store.update('cp-1', { appendMessages: ['ok', () => 1] }))).rejects.toThrow(/update\.appendMessages\[1\]/);
      expect(await codeOf(() => store.update('cp-1', { state: checkpointState({ iteration: -1 }) }))).toBe('CHECKPOINT_INVALID');
      await expect(
        later(() => store.update('cp-1', { state: { ...checkpointState(), spentUsd: 'lots' } as unknown as CheckpointState })),
      ).rejects.toThrow(/update\.state\.spentUsd/);
      expect(await codeOf(() => store.update('cp-1', { toolCalls: [started('x', 0), started('x', 1)] }))).toBe('CHECKPOINT_INVALID');
      expect(await codeOf(() => store.update('cp-1', { appendMessages: 'm' } as unknown as CheckpointUpdate))).toBe('CHECKPOINT_INVALID');
      expect(await codeOf(() => store.create(checkpointInit('', {})))).toBe('CHECKPOINT_INVALID');
      expect(await codeOf(() => store.create(checkpointInit('cp-2', { messages: [1n] })))).toBe('CHECKPOINT_INVALID');
      const cp = await store.load('cp-1');
      expect(cp?.messages).toEqual([]);
      expect(cp?.log).toEqual([]);
      expect(cp?.toolCalls).toEqual([]);
      expect(await store.load('cp-2')).toBeUndefined();
    });

    it('stores JSON: undefined properties are dropped and nothing is shared with the caller', async () => {
      const store = await open();
      const message = { role: 'user', content: 'hi', name: undefined as string | undefined };
      await store.create(checkpointInit('cp-1', { messages: [message] }));
      message.content = 'changed after writing';
      const first = await store.load('cp-1');
      expect(first?.messages).toEqual([{ role: 'user', content: 'hi' }]);
      expect(Object.keys(first?.messages[0] as object)).toEqual(['role', 'content']);
      (first?.messages[0] as { content: string }).content = 'changed after reading';
      expect((await store.load('cp-1'))?.messages).toEqual([{ role: 'user', content: 'hi' }]);
    });

    it('follows the lifecycle: complete, fail and abandon end a running checkpoint once', async () => {
      const store = await open();
      await store.create(checkpointInit('a'));
      await store.create(checkpointInit('b'));
      await store.create(checkpointInit('c'));
      expect(await codeOf(() => store.create(checkpointInit('a')))).toBe('CHECKPOINT_EXISTS');
      t = 5_000;
      await store.complete('a');
      await store.fail('b', 'provider down');
      await store.abandon('c');
      expect((await store.load('a'))?.status).toBe('completed');
      expect(await store.load('b')).toMatchObject({ status: 'failed', error: 'provider down', updatedAt: 5_000 });
      expect((await store.load('c'))?.status).toBe('abandoned');
      expect(await codeOf(() => store.update('a', { appendMessages: ['late'] }))).toBe('CHECKPOINT_NOT_RUNNING');
      expect(await codeOf(() => store.complete('a'))).toBe('CHECKPOINT_NOT_RUNNING');
      expect(await codeOf(() => store.abandon('b'))).toBe('CHECKPOINT_NOT_RUNNING');
      expect(await codeOf(() => store.update('zzz', {}))).toBe('CHECKPOINT_NOT_FOUND');
      expect(await codeOf(() => store.complete('zzz'))).toBe('CHECKPOINT_NOT_FOUND');
    });

    it('keeps how each run ended with its checkpoint: a stopped-short run never reads back as completed', async () => {
      const store = await open();
      const ends = { lim: { state: 'limit', limit: 'iterations' }, cancel: { state: 'cancelled' }, done: { state: 'completed' } } as const;
      for (const [id, end] of Object.entries(ends)) {
        await store.create(checkpointInit(id, { input: 'You are continuing a task…' }));
        // What the runtime writes last: the run's task, the run it continued and how it ended.
        await store.update(id, { state: checkpointState({ extra: { task: 'Summarize the README', parentRunId: 'run-0', end } }) });
        await store.complete(id);
      }
      for (const [id, end] of Object.entries(ends)) {
        const cp = await store.load(id);
        expect(cp === undefined ? undefined : checkpointRunInfo(cp)).toEqual({ task: 'Summarize the README', parentRunId: 'run-0', end });
      }
    });

    it('lists summaries oldest update first, filtered by status and session', async () => {
      const store = await open();
      t = 100;
      await store.create(checkpointInit('a', { sessionId: 's1' }));
      t = 200;
      await store.create(checkpointInit('b', { sessionId: 's2' }));
      t = 300;
      await store.create(checkpointInit('c', { sessionId: 's1' }));
      t = 400;
      await store.update('a', { state: checkpointState({ iteration: 4 }) });
      t = 500;
      await store.fail('b', 'x');
      expect((await store.list()).map((s) => s.id)).toEqual(['c', 'a', 'b']);
      expect(await store.list({ status: 'running' })).toEqual([
        { id: 'c', runId: 'run-c', sessionId: 's1', taskId: 'task-1', status: 'running', iteration: 0, createdAt: 300, updatedAt: 300 },
        { id: 'a', runId: 'run-a', sessionId: 's1', taskId: 'task-1', status: 'running', iteration: 4, createdAt: 100, updatedAt: 400 },
      ]);
      expect((await store.list({ status: ['failed', 'completed'] })).map((s) => s.id)).toEqual(['b']);
      expect((await store.list({ sessionId: 's2' })).map((s) => s.error)).toEqual(['x']);
      expect(await store.list({ status: [] })).toEqual([]);
    });

    it('stores a large text once per checkpoint and gives it back by reference', async () => {
      const store = await open();
      await store.create(checkpointInit('cp-1'));
      await store.create(checkpointInit('cp-2'));
      const big = 'x'.repeat(60_000) + '😀';
      const ref = await store.putBlob('cp-1', big);
      expect(ref).toMatch(/^blob:sha256:[0-9a-f]{64}$/);
      expect(await store.putBlob('cp-1', big)).toBe(ref);
      expect(await store.getBlob('cp-1', ref)).toBe(big);
      expect(await store.getBlob('cp-2', ref)).toBeUndefined();
      expect(await store.getBlob('cp-1', 'blob:sha256:nope')).toBeUndefined();
      expect(await codeOf(() => store.putBlob('zzz', big))).toBe('CHECKPOINT_NOT_FOUND');
    });

    it('deletes a checkpoint with everything stored with it', async () => {
      const store = await open();
      await store.create(checkpointInit('cp-1', { messages: ['m'] }));
      const ref = await store.putBlob('cp-1', 'payload');
      await store.update('cp-1', { toolCalls: [started('c0', 0)], appendLog: ['l'] });
      expect(await store.delete('cp-1')).toBe(true);
      expect(await store.delete('cp-1')).toBe(false);
      expect(await store.load('cp-1')).toBeUndefined();
      expect(await store.getBlob('cp-1', ref)).toBeUndefined();
      await store.create(checkpointInit('cp-1'));
      expect(await store.load('cp-1')).toMatchObject({ messages: [], log: [], toolCalls: [] });
    });

    it('lists incomplete checkpoints for recovery with a strategy by age', async () => {
      const store = await open();
      const hour = 3_600_000;
      t = 0;
      await store.create(checkpointInit('old'));
      t = 20 * hour;
      await store.create(checkpointInit('day'));
      t = 30 * hour - 10;
      await store.create(checkpointInit('fresh'));
      await store.create(checkpointInit('done'));
      await store.complete('done');
      const pending = await scanForRecovery(store, { clock: new ManualClock({ start: 30 * hour }) });
      expect(pending.map((p) => [p.checkpointId, p.strategy])).toEqual([
        ['old', 'abandon'],
        ['day', 'restart'],
        ['fresh', 'resume'],
      ]);
      expect(pending[2]).toEqual({
        checkpointId: 'fresh',
        runId: 'run-fresh',
        sessionId: 'session-1',
        taskId: 'task-1',
        iteration: 0,
        updatedAt: 30 * hour - 10,
        strategy: 'resume',
      });
      const custom = await scanForRecovery(store, {
        clock: new ManualClock({ start: 30 * hour }),
        policy: { resumeWithinMs: 11 * hour, restartWithinMs: 40 * hour },
      });
      expect(custom.map((p) => p.strategy)).toEqual(['restart', 'resume', 'resume']);
    });

    it('reads back exactly what any sequence of writes stored (property)', async () => {
      const store = await open();
      let n = 0;
      const update = fc.record(
        {
          appendMessages: fc.array(jsonValue, { maxLength: 3 }),
          appendLog: fc.array(jsonValue, { maxLength: 2 }),
          iteration: fc.nat(1000),
          tracker: jsonValue,
          clearToolCalls: fc.boolean(),
          call: fc.option(fc.tuple(fc.constantFrom('a', 'b', 'c'), fc.nat(5), jsonValue), { nil: undefined }),
          lastSeq: fc.option(fc.nat(10_000), { nil: undefined }),
        },
        { requiredKeys: ['iteration'] },
      );
      await fc.assert(
        fc.asyncProperty(fc.array(jsonValue, { maxLength: 3 }), fc.array(update, { maxLength: 6 }), async (initial, updates) => {
          n += 1;
          const id = `p-${n}`;
          await store.create(checkpointInit(id, { messages: initial }));
          const model = {
            messages: [...initial],
            log: [] as unknown[],
            calls: new Map<string, CheckpointToolCall>(),
            state: checkpointState(),
            lastSeq: 0,
          };
          for (const u of updates) {
            const s = checkpointState({ iteration: u.iteration, tracker: u.tracker });
            const calls: CheckpointToolCall[] = u.call === undefined ? [] : [finished(u.call[0], u.call[1], u.call[2])];
            await store.update(id, {
              state: s,
              appendMessages: u.appendMessages ?? [],
              appendLog: u.appendLog ?? [],
              clearToolCalls: u.clearToolCalls ?? false,
              toolCalls: calls,
              ...(u.lastSeq === undefined ? {} : { lastSeq: u.lastSeq }),
            });
            model.messages.push(...(u.appendMessages ?? []));
            model.log.push(...(u.appendLog ?? []));
            if (u.clearToolCalls === true) model.calls.clear();
            for (const c of calls) model.calls.set(c.toolCallId, c);
            model.state = JSON.parse(JSON.stringify(s)) as CheckpointState;
            model.lastSeq = Math.max(model.lastSeq, u.lastSeq ?? 0);
          }
          const cp = await store.load(id);
          expect(cp?.messages).toEqual(model.messages);
          expect(cp?.log).toEqual(model.log);
          expect(cp?.state).toEqual(model.state);
          expect(cp?.lastSeq).toBe(model.lastSeq);
          expect(cp?.toolCalls).toEqual(
            [...model.calls.values()].sort((a, b) => a.index - b.index || (a.toolCallId < b.toolCallId ? -1 : 1)),
          );
        }),
        { numRuns: 40 },
      );
    });

    it('keeps everything across a reopen when the store is durable', async (ctx) => {
      const store = await open();
      if (handle.reopen === undefined) {
        ctx.skip();
        return;
      }
      await store.create(checkpointInit('cp-1', { messages: ['m0'] }));
      await store.update('cp-1', {
        appendMessages: ['m1'],
        toolCalls: [finished('c0', 0, 'r')],
        state: checkpointState({ iteration: 1 }),
        lastSeq: 9,
      });
      const before = await store.load('cp-1');
      const reopened = await handle.reopen();
      expect(await reopened.load('cp-1')).toEqual(before);
    });
  });
}
