import { HeadwayError, type ProgressEvent } from '@headway/protocol';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentRuntime } from '../loop/agent-runtime.js';
import { ManualClock } from '../loop/clock.js';
import { defineTool, type Tool } from '../tools/define-tool.js';
import type { ChatMessage } from '../provider/provider.js';
import { ScriptedProvider, type ScriptedStep } from '../provider/scripted-provider.js';
import { collect, fileRead, ids } from '../loop/test-helpers.test-util.js';
import type { CheckpointStore } from './checkpoint-store.js';
import { MemoryCheckpointStore } from './memory-checkpoint-store.js';
import { runStateFromCheckpoint } from './run-state-codec.js';

/** Iteration 1: two work calls; iteration 2: one; then the answer. Decided from the conversation, so any process replies the same. */
function script(conversation: readonly ChatMessage[]): ScriptedStep {
  const rounds = conversation.filter((m) => m.role === 'assistant').length;
  if (rounds === 0) {
    return {
      content: 'Reading both parts.',
      toolCalls: [
        { id: 'c1', name: 'work', args: { n: 1 } },
        { id: 'c2', name: 'work', args: { n: 2 } },
      ],
      usage: { inputTokens: 100, outputTokens: 10 },
    };
  }
  if (rounds === 1) return { toolCalls: [{ id: 'c3', name: 'work', args: { n: 3 } }], usage: { inputTokens: 200, outputTokens: 10 } };
  return { content: 'All three parts are done.', usage: { inputTokens: 300, outputTokens: 10 } };
}

interface Effect {
  n: number;
  key: string;
}

/** A tool with a side effect; `hangOn` makes that call never finish (the process "dies" in it). */
function workTool(effects: Effect[], hangOn?: number): Tool {
  return defineTool({
    name: 'work',
    description: 'Do one part of the work',
    parameters: z.object({ n: z.number() }),
    execute: ({ n }, ctx) => {
      effects.push({ n, key: ctx.idempotencyKey });
      if (n === hangOn) return new Promise<string>(() => undefined);
      return `part ${n} done`;
    },
  });
}

function runtime(
  store: CheckpointStore,
  tools: Tool[],
  clock: ManualClock,
  extra: {
    sinks?: ((e: ProgressEvent) => void)[];
    prefix?: string;
    onInternalError?: (error: unknown, context: { where: string }) => void;
  } = {},
): AgentRuntime {
  return new AgentRuntime(
    { provider: 'scripted', maxIterations: 10 },
    {
      provider: new ScriptedProvider(script),
      tools,
      checkpointStore: store,
      sinks: extra.sinks ?? [],
      generateId: ids(extra.prefix ?? 'id'),
      clock,
      ...(extra.onInternalError === undefined ? {} : { onInternalError: extra.onInternalError }),
    },
  );
}

async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
}

describe('checkpoint lifecycle', () => {
  it('creates at the start, saves each iteration, completes at the end, and keeps the whole run', async () => {
    const store = new MemoryCheckpointStore();
    const events = collect();
    const effects: Effect[] = [];
    const result = await runtime(store, [workTool(effects)], new ManualClock(), { sinks: [events.sink] }).run('Do the three parts');
    expect(result.status).toBe('completed');
    expect(events.events.flatMap((e) => (e.type === 'checkpoint.saved' ? [[e.checkpointId, e.iteration]] : []))).toEqual([
      ['id-3', 1],
      ['id-3', 2],
    ]);
    const [summary] = store.list();
    expect(summary).toMatchObject({ id: 'id-3', runId: 'id-1', sessionId: 'id-2', status: 'completed', iteration: 3 });
    const cp = store.load('id-3')!;
    expect(cp.messages.map((m) => (m as ChatMessage).role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'tool',
      'user',
      'assistant',
      'tool',
      'user',
      'assistant',
    ]);
    expect(cp.messages.at(-1)).toEqual({ role: 'assistant', content: 'All three parts are done.' });
    expect(cp.state).toMatchObject({ iteration: 3, toolsUsed: ['work'], usage: { inputTokens: 600 } });
    expect(cp.log).toHaveLength(5); // one text entry per iteration with text, one per tool call
    expect(cp.toolCalls).toEqual([]);
    expect(cp.lastSeq).toBe(events.events.at(-1)!.seq);
  });

  it('with an async store whose seq writes land late, no seq write reaches a completed checkpoint', async () => {
    const inner = new MemoryCheckpointStore();
    // A store on a connection pool: a write of lastSeq alone may run on another connection and land
    // later — here as late as it can: once the checkpoint is completed, or after a while.
    const held: (() => void)[] = [];
    const late = async (): Promise<void> => {
      await new Promise<void>((resolve) => {
        held.push(resolve);
        void settle().then(resolve);
      });
    };
    const store: CheckpointStore = {
      create: (init) => {
        inner.create(init);
        return Promise.resolve();
      },
      update: async (id, update) => {
        if (Object.keys(update).length === 1 && update.lastSeq !== undefined) await late();
        inner.update(id, update);
      },
      complete: (id) => {
        inner.complete(id);
        for (const release of held.splice(0)) release();
        return Promise.resolve();
      },
      fail: (id, error) => {
        inner.fail(id, error);
        return Promise.resolve();
      },
      abandon: (id) => {
        inner.abandon(id);
        return Promise.resolve();
      },
      load: (id) => Promise.resolve(inner.load(id)),
      list: (filter) => Promise.resolve(inner.list(filter)),
      delete: (id) => Promise.resolve(inner.delete(id)),
      putBlob: (id, content) => Promise.resolve(inner.putBlob(id, content)),
      getBlob: (id, ref) => Promise.resolve(inner.getBlob(id, ref)),
    };
    const internal: string[] = [];
    const effects: Effect[] = [];
    const result = await runtime(store, [workTool(effects)], new ManualClock(), {
      onInternalError: (e, { where }) => internal.push(`${where}: ${String(e)}`),
    }).run('Do the three parts');
    expect(result.status).toBe('completed');
    expect(internal).toEqual([]);
    expect(inner.list()).toMatchObject([{ status: 'completed' }]);
  });

  it('marks the checkpoint failed when the run fails', async () => {
    const store = new MemoryCheckpointStore();
    const failing = new ScriptedProvider((conversation) => {
      if (conversation.some((m) => m.role === 'tool')) return { error: new Error('provider exploded') };
      return { toolCalls: [{ id: 'x', name: 'file_read', args: { path: 'a' } }] };
    });
    const rt = new AgentRuntime(
      { provider: 'scripted' },
      {
        provider: failing,
        tools: [fileRead],
        checkpointStore: store,
        generateId: ids(),
        clock: new ManualClock(),
        retry: { maxRetries: 0 },
      },
    );
    const result = await rt.run('t');
    expect(result.status).toBe('error');
    expect(store.list()).toMatchObject([{ status: 'failed', error: expect.stringContaining('provider exploded') as unknown }]);
  });

  it('stores a tool result over 50,000 characters once and gives the model a reference and a preview', async () => {
    const store = new MemoryCheckpointStore();
    const big = `${'row;'.repeat(15_000)}END`;
    const dump = defineTool({ name: 'dump', description: 'Dump the table', parameters: z.object({}), execute: () => big });
    const provider = new ScriptedProvider([{ toolCalls: [{ id: 'd', name: 'dump', args: {} }] }, { content: 'ok' }]);
    await new AgentRuntime(
      { provider: 'scripted' },
      { provider, tools: [dump], checkpointStore: store, generateId: ids(), clock: new ManualClock() },
    ).run('t');
    const seen = provider.requests[1]!.messages.find((m) => m.role === 'tool')!.content;
    expect(seen.length).toBeLessThan(3_000);
    const match = /^\[tool result of 60003 characters stored as (blob:sha256:[0-9a-f]{64}); first 2000 characters follow\]\nrow;row;/.exec(
      seen,
    );
    expect(match).not.toBeNull();
    expect(store.getBlob('id-3', match![1]!)).toBe(big);
  });
});

describe('crash recovery', () => {
  async function crashMidRound(
    store: CheckpointStore,
    clock: ManualClock,
    prefix = 'first',
  ): Promise<{ effects: Effect[]; events: ProgressEvent[] }> {
    const effects: Effect[] = [];
    const events = collect();
    // The second call of iteration 1 never returns: as far as the store knows, the process died in it.
    void runtime(store, [workTool(effects, 2)], clock, { sinks: [events.sink], prefix }).run('Do the three parts', { sessionId: 's1' });
    await settle();
    return { effects, events: events.events };
  }

  async function uninterruptedConversation(): Promise<unknown[]> {
    const store = new MemoryCheckpointStore();
    await runtime(store, [workTool([])], new ManualClock(), { prefix: 'clean' }).run('Do the three parts', { sessionId: 's1' });
    return store.load(store.list()[0]!.id)!.messages;
  }

  it.each([['memory', () => new MemoryCheckpointStore({ clock: new ManualClock({ start: 0 }) })]] as const)(
    'resumes from the last iteration (%s): finished calls kept, the in-flight call re-run with its key, seq and percent continue',
    async (_kind, make) => {
      const clock = new ManualClock({ start: 1_000 });
      const store: CheckpointStore = make();
      const first = await crashMidRound(store, clock);
      expect(first.effects).toEqual([
        { n: 1, key: 'first-1:c1' },
        { n: 2, key: 'first-1:c2' },
      ]);
      await clock.advance(10 * 60_000);
      const events = collect();
      const effects: Effect[] = [];
      const rt = runtime(store, [workTool(effects)], clock, { sinks: [events.sink], prefix: 'second' });
      const pending = await rt.pendingRecovery;
      expect(pending).toEqual([
        {
          checkpointId: 'first-2',
          runId: 'first-1',
          sessionId: 's1',
          taskId: 'first-1',
          iteration: 1,
          updatedAt: 0,
          strategy: 'resume',
        },
      ]);
      const result = await rt.resume('first-2');
      expect(result).toMatchObject({
        status: 'completed',
        text: 'All three parts are done.',
        runId: 'first-1',
        sessionId: 's1',
        iterations: 3,
      });
      // c1 finished before the crash and is not run again; c2 was in flight and runs again with the same key.
      expect(effects).toEqual([
        { n: 2, key: 'first-1:c2' },
        { n: 3, key: 'first-1:c3' },
      ]);
      const cp = (await store.load('first-2'))!;
      expect(cp.status).toBe('completed');
      expect(cp.messages).toEqual(await uninterruptedConversation());
      // Events continue the run: no second run.started, seq right after the last one emitted.
      const lastBefore = first.events.at(-1)!;
      expect(events.events[0]!.seq).toBe(lastBefore.seq + 1);
      expect(events.types()).not.toContain('run.started');
      expect(events.events.every((e, i) => i === 0 || e.seq === events.events[i - 1]!.seq + 1)).toBe(true);
      const percentBefore = Math.max(...first.events.map((e) => (e.type === 'progress' ? e.percent : 0)));
      const percents = events.events.flatMap((e) => (e.type === 'progress' ? [e.percent] : []));
      expect(percents[0]).toBeGreaterThanOrEqual(percentBefore);
      expect(percents.at(-1)).toBe(100);
      expect(await rt.pendingRecovery).toHaveLength(1); // the scan is of construction time
      expect(await runtime(store, [], clock).pendingRecovery).toEqual([]);
    },
  );

  it('resumes a checkpoint whose tool-call log rows were written before the rename (step, not iteration)', async () => {
    const clock = new ManualClock({ start: 1_000 });
    const crashed = new MemoryCheckpointStore({ clock: new ManualClock({ start: 0 }) });
    await crashMidRound(crashed, clock);
    const cp = crashed.load('first-2')!;
    const rows = cp.log as { iteration: number }[];
    expect(rows.length).toBeGreaterThan(0);
    // The same checkpoint as the previous minor stored it: every log row names its iteration `step`.
    const store = new MemoryCheckpointStore({ clock: new ManualClock({ start: 0 }) });
    store.create({
      id: cp.id,
      runId: cp.runId,
      sessionId: cp.sessionId,
      taskId: cp.taskId,
      input: cp.input,
      state: cp.state,
      messages: cp.messages,
      log: rows.map(({ iteration, ...rest }) => ({ ...rest, step: iteration })),
      lastSeq: cp.lastSeq,
    });
    store.update(cp.id, { toolCalls: cp.toolCalls });
    const effects: Effect[] = [];
    const result = await runtime(store, [workTool(effects)], clock, { prefix: 'second' }).resume('first-2');
    expect(result).toMatchObject({ status: 'completed', text: 'All three parts are done.', iterations: 3 });
    expect(effects).toEqual([
      { n: 2, key: 'first-1:c2' },
      { n: 3, key: 'first-1:c3' },
    ]);
    const log = store.load('first-2')!.log as Record<string, unknown>[];
    // Rows already stored stay as they were; the rows the resumed run added use the new name.
    expect(log.slice(0, rows.length).every((e) => 'step' in e && !('iteration' in e))).toBe(true);
    expect(log.slice(rows.length).map((e) => [e.iteration, e.name ?? e.text])).toEqual([
      [1, 'work'],
      [2, 'work'],
      [3, 'All three parts are done.'],
    ]);
  });

  it('resumes a checkpoint written while the loop said "round" (roundIteration, bonusStepsLeft)', async () => {
    const clock = new ManualClock({ start: 1_000 });
    const crashed = new MemoryCheckpointStore({ clock: new ManualClock({ start: 0 }) });
    await crashMidRound(crashed, clock);
    const cp = crashed.load('first-2')!;
    const { inFlightIteration, ...extra } = cp.state.extra!;
    expect(inFlightIteration).toBe(0);
    // The same checkpoint as an older build stored it: the iteration in flight was `roundIteration`.
    const old = { ...cp, state: { ...cp.state, extra: { ...extra, roundIteration: inFlightIteration } } };
    expect(runStateFromCheckpoint(old)).toEqual(runStateFromCheckpoint(cp));
    const store = new MemoryCheckpointStore({ clock: new ManualClock({ start: 0 }) });
    store.create({
      id: cp.id,
      runId: cp.runId,
      sessionId: cp.sessionId,
      taskId: cp.taskId,
      input: cp.input,
      state: old.state,
      messages: cp.messages,
      log: cp.log,
      lastSeq: cp.lastSeq,
    });
    store.update(cp.id, { toolCalls: cp.toolCalls });
    const effects: Effect[] = [];
    const result = await runtime(store, [workTool(effects)], clock, { prefix: 'second' }).resume('first-2');
    expect(result).toMatchObject({ status: 'completed', text: 'All three parts are done.', iterations: 3 });
    expect(effects).toEqual([
      { n: 2, key: 'first-1:c2' },
      { n: 3, key: 'first-1:c3' },
    ]);
    // A run that was winding down kept its grace iterations left as `bonusStepsLeft`.
    const windDown = { reason: 'time-budget', startedAt: 5, reportRequested: true };
    const winding = { ...cp, state: { ...cp.state, extra: { ...extra, inFlightIteration, windDown: { ...windDown, bonusStepsLeft: 2 } } } };
    expect(runStateFromCheckpoint(winding).windDown).toEqual({ ...windDown, graceIterationsLeft: 2 });
    // Neither name: the checkpoint is refused and says where.
    const neither = { ...cp, state: { ...cp.state, extra } };
    expect(() => runStateFromCheckpoint(neither)).toThrow(/state\.extra\.inFlightIteration/);
  });

  it('rejects pendingRecovery with CHECKPOINT_STORE_FAILED when the store throws while it is scanned', async () => {
    const broken = new MemoryCheckpointStore();
    const cause = new Error('disk unplugged');
    broken.list = () => {
      throw cause;
    };
    const rt = new AgentRuntime({ provider: 'scripted' }, { provider: new ScriptedProvider(script), checkpointStore: broken });
    await expect(rt.pendingRecovery).rejects.toMatchObject({ name: 'CheckpointError', code: 'CHECKPOINT_STORE_FAILED', cause });
    await expect(rt.pendingRecovery).rejects.toThrow('disk unplugged');
  });

  it('picks a strategy by age, and restarts, abandons or refuses as asked', async () => {
    const clock = new ManualClock({ start: 0 });
    const store = new MemoryCheckpointStore({ clock });
    await crashMidRound(store, clock);
    await clock.advance(2 * 3_600_000);
    const rt = runtime(store, [workTool([])], clock, { prefix: 'later' });
    expect((await rt.pendingRecovery).map((p) => p.strategy)).toEqual(['restart']);
    const custom = new AgentRuntime(
      { provider: 'scripted' },
      { provider: new ScriptedProvider(script), checkpointStore: store, clock, recovery: { resumeWithinMs: 3 * 3_600_000 } },
    );
    expect((await custom.pendingRecovery).map((p) => p.strategy)).toEqual(['resume']);
    expect(
      () =>
        new AgentRuntime(
          { provider: 'scripted' },
          { provider: new ScriptedProvider(script), checkpointStore: store, recovery: { resumeWithinMs: -1 } },
        ),
    ).toThrow(/recovery\.resumeWithinMs/);

    const restarted = await rt.restart('first-2');
    expect(restarted).toMatchObject({ status: 'completed', sessionId: 's1', runId: 'later-1' });
    expect(store.load('first-2')?.status).toBe('abandoned');

    const codeOf = async (p: Promise<unknown>): Promise<string | undefined> =>
      p.then(
        () => undefined,
        (e: unknown) => (HeadwayError.isInstance(e) ? e.code : 'other'),
      );
    expect(await codeOf(rt.resume('first-2'))).toBe('CHECKPOINT_NOT_RUNNING');
    expect(await codeOf(rt.resume('nope'))).toBe('CHECKPOINT_NOT_FOUND');
    expect(await codeOf(new AgentRuntime({ provider: 'scripted' }, { provider: new ScriptedProvider(script) }).resume('x'))).toBe(
      'CHECKPOINT_NOT_FOUND',
    );
  });

  it('abandons one or all unfinished checkpoints, but not those of runs in progress', async () => {
    const clock = new ManualClock();
    const store = new MemoryCheckpointStore();
    await crashMidRound(store, clock, 'a');
    await crashMidRound(store, clock, 'b');
    const rt = runtime(store, [workTool([], 1)], clock, { prefix: 'live' });
    void rt.run('hangs in its first tool');
    await settle();
    expect(store.list({ status: 'running' }).map((c) => c.id)).toEqual(['a-2', 'b-2', 'live-3']);
    expect(await rt.abandonAll()).toBe(2);
    expect(store.list({ status: 'running' }).map((c) => c.id)).toEqual(['live-3']);
    await rt.abandon('live-3');
    expect(store.list({ status: 'running' })).toEqual([]);
  });

  it('refuses a checkpoint that does not read back as a run', async () => {
    const store = new MemoryCheckpointStore();
    store.create({
      id: 'bad',
      runId: 'r',
      sessionId: 's',
      taskId: 't',
      input: 'x',
      state: {
        iteration: 1,
        toolsUsed: [],
        usage: { inputTokens: 0, outputTokens: 0 },
        spentUsd: 0,
        providerCalls: 1,
        extra: { startedAt: 'yesterday' },
      },
      messages: [{ role: 'wizard' }],
    });
    const rt = new AgentRuntime({ provider: 'scripted' }, { provider: new ScriptedProvider(script), checkpointStore: store });
    await expect(rt.resume('bad')).rejects.toThrow(/checkpoint bad: cannot resume: state\.extra\.startedAt/);
  });
});
