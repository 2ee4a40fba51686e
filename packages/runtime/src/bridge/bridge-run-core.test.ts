import { HeadwayError, ManualClock, type ProgressEvent } from '@headway/protocol';
import { describe, expect, it } from 'vitest';
import { createBridgeRunCore, type BridgeRunSetup } from './bridge-run-core.js';

class KitError extends HeadwayError<'KIT_HARD_STOP' | 'KIT_INVALID_COST'> {}

const setup = (extra: Partial<BridgeRunSetup> = {}): BridgeRunSetup => ({
  defaultAgentName: 'kit-agent',
  hardStopError: (message) => new KitError('KIT_HARD_STOP', message),
  invalidCostError: (message) => new KitError('KIT_INVALID_COST', message),
  ...extra,
});

function recorded() {
  const events: ProgressEvent[] = [];
  return { events, sink: (e: ProgressEvent): void => void events.push(e), types: () => events.map((e) => e.type) };
}

describe('createBridgeRunCore', () => {
  it('turns iterations, steps and tools into the runtime’s events, in order', async () => {
    const { sink, events, types } = recorded();
    const core = createBridgeRunCore({ task: 'Find it', sinks: [sink], clock: new ManualClock(), maxIterations: 5 }, setup());
    core.start();
    core.iterationStarted();
    core.stepStarted('a', 'llm-1', 'model call', { provider: 'kit', model: 'm1' });
    expect(core.isStepOpen('a')).toBe(true);
    core.toolStarted('read', 'c1', { path: 'a.ts', apiKey: 'sk-secret-value-1234567890' });
    core.toolFinished('read', 'c1', { path: 'a.ts' }, 'contents', true);
    expect(core.finishStep('a', { inputTokens: 10, outputTokens: 2 }, 'm1')).toBe(true);
    expect(core.isStepOpen('a')).toBe(false);
    // A step that is not open ends nothing.
    expect(core.finishStep('a', undefined, 'm1', 'error')).toBe(false);
    core.iterationFinished();
    const end = await core.end({ completed: true });
    expect(end).toEqual({ outcome: 'completed', warnings: [] });
    expect(types().filter((t) => t !== 'progress')).toEqual([
      'run.started',
      'iteration',
      'step.started',
      'tool.executing',
      'tool.completed',
      'step.finished',
      'run.finished',
    ]);
    expect(events.find((e) => e.type === 'run.started')).toMatchObject({
      agentName: 'kit-agent',
      task: 'Find it',
      limits: { iterations: 5 },
    });
    expect(events.find((e) => e.type === 'step.started')).toMatchObject({
      step: 'llm-1',
      description: 'model call',
      provider: 'kit',
      model: 'm1',
    });
    expect(JSON.stringify(events)).not.toContain('sk-secret-value');
    expect(events.filter((e) => e.type === 'step.finished')).toHaveLength(1);
  });

  it('with stopBeforeLastIteration, stops one iteration before the limit and leaves the last for the report', async () => {
    const { sink, events } = recorded();
    const core = createBridgeRunCore(
      { task: 't', sinks: [sink], clock: new ManualClock(), maxIterations: 3 },
      setup({ stopBeforeLastIteration: true }),
    );
    for (let i = 0; i < 2; i++) {
      expect(core.turnStarting()).toBeUndefined();
      core.iterationStarted();
      core.iterationFinished();
    }
    expect(core.turnStarting()).toEqual({ reason: 'max-iterations', mode: 'ask' });
    expect(core.reportPrompt('max-iterations', 1)).toContain('3 of 3');
    const end = await core.end({ completed: false });
    expect(end.outcome).toBe('limit');
    expect(end.reason).toBe('max-iterations');
    expect(events.filter((e) => e.type === 'limit.reached')).toMatchObject([{ limit: 'iterations', used: 3, max: 3 }]);
  });

  it('without it, only the framework’s own limit stops the run', () => {
    const core = createBridgeRunCore({ task: 't', sinks: [], clock: new ManualClock(), maxIterations: 2 }, setup());
    for (let i = 0; i < 3; i++) {
      expect(core.turnStarting()).toBeUndefined();
      core.iterationStarted();
    }
    expect(core.turnLimitReached()).toEqual({ reason: 'max-iterations', mode: 'ask' });
  });

  it('aborts with the bridge’s own typed error at the hard time stop', async () => {
    const clock = new ManualClock();
    const core = createBridgeRunCore({ task: 't', sinks: [], clock, timeBudgetMs: 100, hardStopAfterMs: 50 }, setup());
    core.start();
    await clock.advance(100);
    expect(core.stop).toEqual({ reason: 'time-budget', mode: 'ask' });
    expect(core.signal.aborted).toBe(false);
    await clock.advance(50);
    expect(core.signal.aborted).toBe(true);
    expect(HeadwayError.isInstance(core.signal.reason, 'KIT_HARD_STOP')).toBe(true);
  });

  it('passes a bad costOf answer to onInternalError as the bridge’s typed error, and counts the call as unpriced', async () => {
    const seen: unknown[] = [];
    const core = createBridgeRunCore(
      { task: 't', sinks: [], clock: new ManualClock(), costOf: () => Number.NaN, onInternalError: (error) => void seen.push(error) },
      setup(),
    );
    core.stepStarted('s', 'llm-1', 'model call');
    core.finishStep('s', { inputTokens: 1, outputTokens: 1 }, 'm');
    expect(seen).toHaveLength(1);
    expect(HeadwayError.isInstance(seen[0], 'KIT_INVALID_COST')).toBe(true);
    expect(core.stats().costUsd).toBeUndefined();
    expect(await core.end({ completed: true })).toEqual({ outcome: 'completed', warnings: [], unpricedCalls: 1 });
  });

  it('follows the runtime’s rule for a call of unknown cost: left out, counted, said once per model, never a stop', async () => {
    const { sink, events } = recorded();
    const seen: unknown[] = [];
    const prices: Record<string, number> = { priced: 0.25 };
    const core = createBridgeRunCore(
      {
        task: 't',
        sinks: [sink],
        clock: new ManualClock(),
        maxSpendUsd: 1,
        costOf: (_usage, { model }) => prices[model],
        onInternalError: (error) => void seen.push(error),
      },
      setup(),
    );
    const calls: [string, boolean][] = [
      ['local/llama-3', true],
      ['priced', true],
      ['local/llama-3', true],
      ['mystery', false],
      ['priced', true],
    ];
    for (const [i, [model, withUsage]] of calls.entries()) {
      expect(core.turnStarting()).toBeUndefined();
      core.iterationStarted();
      core.stepStarted(`s${String(i)}`, `llm-${String(i + 1)}`, 'model call', { model });
      core.finishStep(`s${String(i)}`, withUsage ? { inputTokens: 1_000, outputTokens: 10 } : undefined, model);
      core.iterationFinished();
    }
    // A node that is not a model call (no usage, not started as one) is neither priced nor counted.
    core.stepStarted('tool', 'tools', 'tool node tools');
    core.finishStep('tool', undefined, 'unknown');
    expect(core.turnStarting()).toBeUndefined();
    expect(core.stats().costUsd).toBe(0.5);
    expect(events.flatMap((e) => (e.type === 'step.finished' ? [e.costUsd ?? null] : []))).toEqual([null, 0.25, null, null, 0.25, null]);
    expect(events.filter((e) => e.type.startsWith('limit.'))).toEqual([]);
    // costOf answering undefined is "unknown", not a failure.
    expect(seen).toEqual([]);
    const end = await core.end({ completed: true });
    expect(end).toEqual({
      outcome: 'completed',
      unpricedCalls: 3,
      warnings: [
        {
          code: 'cost-unknown',
          message:
            'local/llama-3 has no price: its calls are not counted against the cost limit of $1 (what they cost is unknown); have costOf price it',
        },
        {
          code: 'cost-unknown',
          message:
            'mystery has no price: its calls are not counted against the cost limit of $1 (what they cost is unknown); have costOf price it',
        },
      ],
    });
  });

  it('still stops on the priced spend, and says nothing of unpriced calls without a budget', async () => {
    const core = createBridgeRunCore({ task: 't', sinks: [], clock: new ManualClock(), maxSpendUsd: 1, costOf: () => 0.6 }, setup());
    for (let i = 0; i < 2; i++) {
      expect(core.turnStarting()).toBeUndefined();
      core.stepStarted('s', 'llm', 'model call', {});
      core.finishStep('s', { inputTokens: 1, outputTokens: 1 }, 'm');
    }
    expect(core.turnStarting()).toEqual({ reason: 'cost-budget', mode: 'fallback' });
    expect(await core.end({ completed: false })).toMatchObject({ outcome: 'limit', reason: 'cost-budget', unpricedCalls: 0 });

    const free = createBridgeRunCore({ task: 't', sinks: [], clock: new ManualClock(), costOf: () => undefined }, setup());
    free.stepStarted('s', 'llm', 'model call', {});
    free.finishStep('s', { inputTokens: 1, outputTokens: 1 }, 'm');
    expect(await free.end({ completed: true })).toEqual({ outcome: 'completed', warnings: [], unpricedCalls: 1 });
  });
});
