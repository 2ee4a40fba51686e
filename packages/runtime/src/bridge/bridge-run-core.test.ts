import { HeadwayError, ManualClock, NullReporter, type ProgressEvent } from '@headway/protocol';
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

  it('with only NullReporters, feeds the hub nothing, yet keeps steps, spend, limits and the report', async () => {
    const core = createBridgeRunCore(
      { task: 'Find it', sinks: [new NullReporter()], clock: new ManualClock(), maxIterations: 5, maxSpendUsd: 0.5, costOf: () => 0.3 },
      setup(),
    );
    // A sink added to the hub afterwards sees nothing: no event is built for a quiet run.
    const { sink, events } = recorded();
    core.hub.add(sink);
    for (let i = 0; i < 2; i++) {
      expect(core.turnStarting()).toBeUndefined();
      core.iterationStarted();
      core.stepStarted(`s${String(i)}`, 'llm', 'model call');
      core.toolStarted('read', `c${String(i)}`, { path: 'a.ts' });
      core.toolFinished('read', `c${String(i)}`, { path: 'a.ts' }, 'contents', true);
      expect(core.finishStep(`s${String(i)}`, { inputTokens: 10, outputTokens: 2 }, 'm1')).toBe(true);
      core.iterationFinished();
    }
    // 0.6 USD spent of 0.5: no working turn is left, and the report comes from the tool-call log.
    expect(core.turnStarting()).toEqual({ reason: 'cost-budget', mode: 'fallback' });
    const end = await core.end({ completed: false });
    expect(end.outcome).toBe('limit');
    expect(end.reason).toBe('cost-budget');
    expect(end.report?.stats).toMatchObject({ iterations: 2, toolCalls: 2, costUsd: 0.6 });
    expect(events).toEqual([]);
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
    await core.end({ completed: true });
  });
});
