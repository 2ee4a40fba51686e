import { HeadwayError } from '@headway/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SYSTEM_PROMPT, parseAgentConfig } from './agent-config.js';
import { AgentRuntime } from './agent-runtime.js';
import { ScriptedProvider } from '../provider/scripted-provider.js';

describe('parseAgentConfig', () => {
  it('fills in the documented defaults', () => {
    expect(parseAgentConfig({ provider: 'openai' })).toEqual({
      provider: 'openai',
      agentName: 'agent',
      systemPrompt: DEFAULT_SYSTEM_PROMPT,
      maxIterations: 10,
      temperature: 0.7,
      capabilityMode: 'full',
      timeoutBehavior: 'graceful',
      graceIterations: 4,
      hardStopAfterMs: 60_000,
      negotiatedTimeoutBudgetMs: 1_800_000,
      negotiatedExtensionMs: 300_000,
      progress: { aiDriven: true, fallbackSteps: [] },
      maxSpendUsd: 0,
      planTool: false,
      stallPolicy: 'warn',
      stall: {},
    });
  });

  it.each([
    [{ provider: 'x', maxIterations: 0 }, 'maxIterations: too small: expected number to be >=1'],
    [{ provider: 'x', maxIterations: 1001 }, 'maxIterations: too big: expected number to be <=1000'],
    [{ provider: 'x', graceIterations: 21 }, 'graceIterations: too big'],
    [{ provider: 'x', capabilityMode: '' }, 'capabilityMode: too small'],
    [{ provider: 'x', timeoutBehavior: 'soft' }, 'timeoutBehavior: invalid option'],
    [{ provider: 'x', temperature: '0.7' }, 'temperature: invalid input: expected number, received string'],
    [{ provider: '' }, 'provider: too small'],
    [{ provider: 'x', maxSpendUsd: -1 }, 'maxSpendUsd: too small'],
    [{}, 'provider: invalid input'],
    [{ provider: 'x', maxIteration: 5 }, 'unrecognized key: "maxIteration"'],
    [
      { provider: 'x', progress: { fallbackSteps: [{ name: 'a', weight: -1 }] } },
      'progress.fallbackSteps[0].weight: expected a positive number',
    ],
    [{ provider: 'x', timeBudgetMs: 1.5 }, 'timeBudgetMs: invalid input: expected int, received number'],
  ])('rejects %j naming the field', (input, message) => {
    let error: unknown;
    try {
      parseAgentConfig(input);
    } catch (e) {
      error = e;
    }
    expect(HeadwayError.isInstance(error, 'RUNTIME_INVALID_CONFIG')).toBe(true);
    expect((error as Error).message).toContain(message);
  });

  it('accepts every maxIterations in 1–1000 and rejects the rest', () => {
    fc.assert(
      fc.property(fc.integer({ min: -2000, max: 2000 }), (n) => {
        const ok = n >= 1 && n <= 1000;
        try {
          expect(parseAgentConfig({ provider: 'x', maxIterations: n }).maxIterations).toBe(n);
          return ok;
        } catch (error) {
          return !ok && (error as Error).message.includes('maxIterations');
        }
      }),
    );
  });

  it('the runtime constructor validates too, and needs a provider', () => {
    expect(() => new AgentRuntime({ provider: 'x', temperature: 3 }, { provider: new ScriptedProvider([]) })).toThrow(
      /temperature: too big/,
    );
    expect(() => new AgentRuntime({ provider: 'x' }, {})).toThrow(/provider: give deps.provider or deps.providers/);
  });

  it('the runtime refuses a capability mode it does not know, naming the field and the known ones', () => {
    expect(() => new AgentRuntime({ provider: 'x', capabilityMode: 'kiosk' }, { provider: new ScriptedProvider([]) })).toThrow(
      'Invalid agent config: capabilityMode: unknown mode "kiosk" (known: full, safe-chat, discord, no-tools; add one with deps.capabilityModes)',
    );
  });
});
