// Hostile checkpoint contents: whatever a store hands back, the run view is built (skipping what
// does not validate), bounded, and never throws.
import { describe, expect, it } from 'vitest';
import { MAX_VIEW_STEPS, MAX_VIEW_TEXT, dashboardRunView } from './run-view.js';

const state = { iteration: 1, toolsUsed: [], usage: { inputTokens: 1, outputTokens: 1 }, spentUsd: 0, providerCalls: 1 };

function throwingGetter(): unknown {
  return Object.defineProperty({ role: 'assistant' }, 'content', {
    enumerable: true,
    get() {
      throw new Error('boom');
    },
  });
}

function revoked(): unknown {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

function nested(depth: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

describe('dashboardRunView on hostile messages', () => {
  it('skips messages that throw or do not validate, and keeps the rest', { timeout: 15_000 }, () => {
    const view = dashboardRunView({
      state,
      messages: [
        throwingGetter(),
        revoked(),
        null,
        42,
        { role: 'assistant', content: 7 },
        { role: 'assistant', content: 'kept', toolCalls: [{ id: 'c1', name: 'search', args: { q: 'x' } }] },
        { role: 'tool', toolCallId: 'c1', name: 'search', content: 'api_key=sk-live-abcdefghijklmnopqrstuvwx' },
        { role: 'tool', toolCallId: 'nope', name: 'search', content: 'an orphan result' },
      ],
    });
    expect(view.steps).toHaveLength(1);
    expect(view.steps[0]!.text).toBe('kept');
    expect(view.steps[0]!.tools[0]!.result).not.toContain('sk-live');
  });

  it('cuts huge text and deeply nested arguments, and keeps only the newest iterations', { timeout: 15_000 }, () => {
    const huge = 'x'.repeat(5_000_000);
    const messages = Array.from({ length: MAX_VIEW_STEPS + 50 }, (_, i) => ({
      role: 'assistant',
      content: i === MAX_VIEW_STEPS + 49 ? huge : `step ${String(i)}`,
      // Every 25th call's arguments are nested deeper than JSON.stringify's stack allows.
      toolCalls: [{ id: `c${String(i)}`, name: 'deep', args: i % 25 === 0 ? nested(20_000) : nested(50) }],
    }));
    const view = dashboardRunView({ state, messages });
    expect([view.steps.length, view.omittedSteps, view.steps[0]!.iteration]).toEqual([MAX_VIEW_STEPS, 50, 51]);
    expect(view.steps.at(-1)!.text.length).toBeLessThan(MAX_VIEW_TEXT + 100);
    expect(view.steps.every((step) => step.tools.every((tool) => tool.args.length <= MAX_VIEW_TEXT + 100))).toBe(true);
  });

  it('reads no plan from a tracker state that does not validate', () => {
    const view = dashboardRunView({
      state: { ...state, tracker: { plan: { total: -1 } } },
      messages: 'not a list' as unknown as unknown[],
    });
    expect(view).toEqual({ steps: [], omittedSteps: 0, finishedSteps: [] });
  });
});
