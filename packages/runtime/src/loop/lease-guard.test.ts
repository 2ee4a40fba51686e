import { ManualClock, type ProgressEvent } from '@headway/protocol';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MemoryCheckpointStore } from '../checkpoint/memory-checkpoint-store.js';
import { ScriptedProvider } from '../provider/scripted-provider.js';
import { defineTool } from '../tools/define-tool.js';
import { AgentRuntime } from './agent-runtime.js';
import { INTERRUPTED_ELSEWHERE } from './lease-guard.js';
import { ids } from './test-helpers.test-util.js';

/** A memory store whose lease is taken over once `lose()` is called. */
class LeasedStore extends MemoryCheckpointStore {
  held = true;
  checks = 0;
  checkLease(): boolean {
    this.checks += 1;
    return this.held;
  }
}

function run(store: MemoryCheckpointStore, onEffect: (call: string) => void) {
  const effect = defineTool({
    name: 'charge',
    description: 'Charge a card (a side effect)',
    parameters: z.object({ n: z.number() }),
    execute: ({ n }) => {
      onEffect(`charge ${n}`);
      return 'charged';
    },
  });
  const provider = new ScriptedProvider([
    { toolCalls: [1, 2, 3].map((n) => ({ id: `c${n}`, name: 'charge', args: { n } })) },
    { content: 'All charged.' },
  ]);
  const events: ProgressEvent[] = [];
  const runtime = new AgentRuntime(
    { provider: 'scripted', maxIterations: 5 },
    { provider, tools: [effect], checkpointStore: store, generateId: ids(), clock: new ManualClock(), sinks: [(e) => void events.push(e)] },
  );
  return { runtime, events };
}

describe('the lease check before each tool call', () => {
  it('a worker whose lease was taken over runs no further tool and ends as interrupted-elsewhere', async () => {
    const store = new LeasedStore();
    const effects: string[] = [];
    const { runtime, events } = run(store, (call) => {
      effects.push(call);
      // Another worker takes the run over while the first call runs.
      store.held = false;
    });
    const result = await runtime.run('Charge three cards');
    expect(effects).toEqual(['charge 1']);
    expect(result.status).toBe('cancelled');
    const terminal = events.at(-1);
    expect(terminal?.type).toBe('run.cancelled');
    expect((terminal as { reason?: string }).reason?.startsWith(`${INTERRUPTED_ELSEWHERE}: `)).toBe(true);
    expect(events.filter((e) => e.type === 'tool.executing').map((e) => (e as { toolCallId?: string }).toolCallId)).toEqual(['c1']);
    expect(store.checks).toBe(2);
  });

  it('a check that throws stops the run too (no confirmation, no side effect), and is reported', async () => {
    const store = new LeasedStore();
    store.checkLease = () => {
      throw new Error('database unreachable');
    };
    const effects: string[] = [];
    const { runtime } = run(store, (call) => effects.push(call));
    const result = await runtime.run('Charge three cards');
    expect(effects).toEqual([]);
    expect(result.status).toBe('cancelled');
  });

  it('a store that keeps its lease runs every call; a store without leases is never asked', async () => {
    const store = new LeasedStore();
    const effects: string[] = [];
    const { runtime } = run(store, (call) => effects.push(call));
    expect((await runtime.run('Charge three cards')).status).toBe('completed');
    expect(effects).toEqual(['charge 1', 'charge 2', 'charge 3']);
    expect(store.checks).toBe(3);
    const plain: string[] = [];
    expect((await run(new MemoryCheckpointStore(), (call) => plain.push(call)).runtime.run('Charge')).status).toBe('completed');
    expect(plain).toHaveLength(3);
  });
});
