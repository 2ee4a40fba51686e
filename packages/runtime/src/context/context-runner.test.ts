import { HeadwayError, type ProgressEvent } from '@headway/protocol';
import { errorMessage } from '@headway/protocol/internal';
import { HOSTILE_RUN_PARAMETERS, HOSTILE_TEST_TIMEOUT, hostileValueArb } from '@headway/protocol/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AgentRuntime, type AgentRuntimeDeps } from '../loop/agent-runtime.js';
import { ManualClock } from '../loop/clock.js';
import { collect, fileRead, ids, search } from '../loop/test-helpers.test-util.js';
import { ScriptedProvider, type ScriptedStep } from '../provider/scripted-provider.js';
import type { ContextPart, ContextRunOutcome } from './context-part.js';

const script = (): ScriptedStep[] => [
  { toolCalls: [{ name: 'file_read', args: { path: 'a.md' } }], delayMs: 1000 },
  { toolCalls: [{ name: 'search', args: { query: 'b' } }], delayMs: 1000 },
  { content: 'Done.', delayMs: 1000 },
];

/** Runs the same three-iteration task, with `parts`; returns what a user can see. */
async function runWith(context: AgentRuntimeDeps['context']): Promise<{
  events: ProgressEvent[];
  errors: string[];
  codes: (string | undefined)[];
  requests: ScriptedProvider['requests'];
  text: string;
}> {
  const clock = new ManualClock({ autoAdvance: true, start: 1_000_000 });
  const provider = new ScriptedProvider(script(), { clock });
  const { sink, events } = collect();
  const errors: string[] = [];
  const codes: (string | undefined)[] = [];
  const result = await new AgentRuntime(
    { provider: 'scripted', maxIterations: 10 },
    {
      provider,
      tools: [fileRead, search],
      sinks: [sink],
      clock,
      generateId: ids('run'),
      ...(context === undefined ? {} : { context }),
      onInternalError: (error, { where }) => {
        errors.push(`${where}: ${errorMessage(error)}`);
        codes.push(HeadwayError.isInstance(error) ? error.code : undefined);
      },
    },
  ).run('Read a.md and search b');
  return { events, errors, codes, requests: provider.requests, text: result.text };
}

describe('context parts', () => {
  it('are called in order around the run, and may add system text, narrow tools and replace the conversation', async () => {
    const calls: string[] = [];
    let outcome: ContextRunOutcome | undefined;
    const first: ContextPart = {
      name: 'first',
      beforeRun: (run) => void calls.push(`beforeRun ${run.task}`),
      beforeIteration: (turn) => void calls.push(`beforeIteration ${turn.iteration}`),
      assembleContext: (a) => {
        calls.push(`first.assemble ${a.iteration} ${a.conversation.length}`);
        // From the second iteration on, the task message is replaced by a short note.
        return a.iteration === 1
          ? { conversation: [a.conversation[0]!, { role: 'user', content: 'Summary: a.md was read.' }, ...a.conversation.slice(2)] }
          : undefined;
      },
      afterRun: (o) => {
        outcome = o;
      },
    };
    const second: ContextPart = {
      name: 'second',
      assembleContext: (a) => {
        calls.push(`second.assemble ${a.iteration} ${a.system.length}`);
        return {
          system: 'Remember: be brief.',
          tools: [...a.tools].reverse().concat([{ name: 'not_offered', description: '', parameters: {} }]),
        };
      },
    };
    const { requests, errors } = await runWith([first, second]);
    expect(errors).toEqual([]);
    expect(calls).toEqual([
      'beforeRun Read a.md and search b',
      'beforeIteration 0',
      'first.assemble 0 2',
      'second.assemble 0 0',
      'beforeIteration 1',
      'first.assemble 1 5',
      'second.assemble 1 0',
      'beforeIteration 2',
      'first.assemble 2 8',
      'second.assemble 2 0',
    ]);
    expect(requests[0]?.messages[0]?.content).toMatch(/\n\nRemember: be brief\.$/);
    expect(requests.map((r) => r.tools.map((t) => t.name))).toEqual([
      ['search', 'file_read'],
      ['search', 'file_read'],
      ['search', 'file_read'],
    ]);
    // The replaced conversation is the run's from then on: the third call starts from it.
    expect(requests[2]?.messages[1]).toEqual({ role: 'user', content: 'Summary: a.md was read.' });
    expect(outcome).toMatchObject({
      status: 'completed',
      iterations: 3,
      durationMs: 3000,
      toolCalls: ['file_read', 'search'],
      text: 'Done.',
    });
  });

  const hostile = (hook: keyof Omit<ContextPart, 'name'>, how: 'throw' | 'reject' | 'malformed'): ContextPart => {
    const fail = (): unknown => {
      if (how === 'throw') throw new Error(`${hook} broke`);
      if (how === 'reject') return Promise.reject(new Error(`${hook} broke`));
      return hook === 'assembleContext'
        ? { conversation: [{ role: 'robot' }] }
        : hook === 'beforeRun'
          ? { history: { runs: 'many' } }
          : undefined;
    };
    return { name: 'hostile', [hook]: fail };
  };

  it.each([
    ['beforeRun', 'throw'],
    ['beforeRun', 'reject'],
    ['beforeRun', 'malformed'],
    ['beforeIteration', 'throw'],
    ['beforeIteration', 'reject'],
    ['assembleContext', 'throw'],
    ['assembleContext', 'reject'],
    ['assembleContext', 'malformed'],
    ['afterRun', 'throw'],
    ['afterRun', 'reject'],
  ] as const)('a part whose %s does "%s" changes nothing else about the run, reported once', async (hook, how) => {
    const plain = await runWith(undefined);
    const withPart = await runWith([hostile(hook, how)]);
    expect(withPart.events).toEqual(plain.events);
    expect(withPart.requests).toEqual(plain.requests);
    expect(withPart.text).toBe(plain.text);
    expect(withPart.errors).toHaveLength(1);
    expect(withPart.errors[0]).toMatch(new RegExp(`^context\\.hostile\\.${hook}: `));
    // What the part threw reaches the callback as it is; what it returned wrong is the runtime's own error.
    expect(withPart.codes).toEqual([how === 'malformed' ? 'RUNTIME_INVALID_CONTEXT_RESULT' : undefined]);
  });

  it('refuses a malformed part at construction, naming it', () => {
    const provider = new ScriptedProvider([]);
    expect(() => new AgentRuntime({ provider: 'scripted' }, { provider, context: [{ name: 'ok' }, { name: '' }] })).toThrow(
      'Invalid agent deps: context[1]: name: expected a non-empty string',
    );
    expect(
      () => new AgentRuntime({ provider: 'scripted' }, { provider, context: [{ name: 'x', afterRun: 3 } as unknown as ContextPart] }),
    ).toThrow('Invalid agent deps: context[0]: afterRun: expected a function');
  });

  it('history from beforeRun gives the bar an ETA from the first iteration', async () => {
    const history: ContextPart = {
      name: 'history',
      beforeRun: () => ({ history: { runs: [3, 3, 3, 3].map((roundtrips) => ({ roundtrips, durationMs: 3000 })) } }),
    };
    const firstEta = (events: ProgressEvent[]): number | undefined => {
      const iterationEnd = events.findIndex((e) => e.type === 'iteration' && e.index === 1);
      const progress = events.slice(0, iterationEnd).filter((e) => e.type === 'progress');
      return progress.map((e) => e.etaMs).find((eta) => eta !== undefined);
    };
    expect(firstEta((await runWith(undefined)).events)).toBeUndefined();
    const eta = firstEta((await runWith([history])).events);
    expect(eta).toBeGreaterThan(0);
    expect(eta).toBeLessThanOrEqual(3000);
  });
});

describe('capability modes', () => {
  const seen = async (capabilityMode: string, deps: Partial<AgentRuntimeDeps> = {}) => {
    const provider = new ScriptedProvider([{ content: 'x' }]);
    await new AgentRuntime(
      { provider: 'scripted', capabilityMode, systemPrompt: 'Base.', progress: { aiDriven: false } },
      { provider, tools: [fileRead, search], ...deps },
    ).run('t');
    return { tools: provider.requests[0]?.tools.map((t) => t.name), system: provider.requests[0]?.messages[0]?.content };
  };

  it('discord offers the safe tools and a chat prompt with no desktop or GUI references', async () => {
    const { tools, system } = await seen('discord');
    expect(tools).toEqual(['file_read']);
    expect(system).toMatch(/^Base\.\n\nYou are answering in a Discord chat channel\./);
    expect(system).not.toMatch(/desktop|screen|browser|GUI|graphical|click|window/i);
  });

  it('no-tools says so in the prompt; users add their own modes', async () => {
    expect(await seen('no-tools')).toEqual({
      tools: [],
      system: 'Base.\n\nYou have no tools in this conversation: answer from what you know and what the user tells you.',
    });
    const searchOnly = {
      name: 'search-only',
      tools: (t: { name: string }) => t.name === 'search',
      systemPrompt: (base: string) => `${base} Search only.`,
    };
    expect(await seen('search-only', { capabilityModes: [searchOnly] })).toEqual({ tools: ['search'], system: 'Base. Search only.' });
  });

  it('refuses a malformed mode, naming it', () => {
    const provider = new ScriptedProvider([]);
    expect(() => new AgentRuntime({ provider: 'scripted' }, { provider, capabilityModes: [{ name: 'x', tools: 'all' } as never] })).toThrow(
      'Invalid agent deps: capabilityModes[0]: tools: expected a function (tool) => boolean',
    );
  });
});

describe('context parts are foreign code', () => {
  it(
    'whatever a part returns or throws, the run completes as without it, with at most one report per part (property, time-limited)',
    async () => {
      const plain = await runWith(undefined);
      await fc.assert(
        fc.asyncProperty(
          hostileValueArb({ maxStringLength: 10_000, maxDepth: 200 }),
          fc.constantFrom('return', 'throw', 'resolve'),
          async (value, how) => {
            const act = (): unknown => {
              if (how === 'throw') throw value;
              return how === 'resolve' ? Promise.resolve(value) : value;
            };
            const part = {
              name: 'foreign',
              beforeRun: act,
              beforeIteration: act,
              assembleContext: act,
              afterRun: act,
            } as unknown as ContextPart;
            const result = await runWith([part]);
            expect(result.text).toBe(plain.text);
            expect(result.errors.length).toBeLessThanOrEqual(1);
          },
        ),
        { ...HOSTILE_RUN_PARAMETERS, numRuns: 40 },
      );
    },
    HOSTILE_TEST_TIMEOUT,
  );
});
