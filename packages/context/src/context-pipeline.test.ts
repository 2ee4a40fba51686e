import type { ProgressEvent } from '@headway/protocol';
import { AgentRuntime, ManualClock, defineTool, type ContextPart } from '@headway/runtime';
import { ScriptedProvider, type ScriptedStep } from '@headway/runtime/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ContextEvent } from './context-event.js';
import { createContextPipeline } from './context-pipeline.js';
import { Playbook } from './playbook/playbook.js';
import { MemoryContextStore } from './storage/context-store.js';
import { MessageTokenCache, estimateTokenCounter } from './tokens/token-counter.js';
import { SUMMARY_HEADER } from './window/consolidate.js';

const search = defineTool({
  name: 'search',
  description: 'Search the web for a query',
  parameters: z.object({ query: z.string() }),
  safe: true,
  execute: ({ query }) => `Results for ${query}: ${'lorem ipsum dolor sit amet '.repeat(75)}`,
});
const readPage = defineTool({
  name: 'read_page',
  description: 'Read a web page',
  parameters: z.object({ url: z.string() }),
  safe: true,
  execute: ({ url }) => `Page ${url}: pricing is 10 USD a month.`,
});

function ids(): () => string {
  let n = 0;
  return () => `id-${++n}`;
}

describe('createContextPipeline in a run', () => {
  it('a 300-iteration run that would overflow an 8,000-token window finishes with consolidations and a correct progress report', async () => {
    const clock = new ManualClock({ autoAdvance: true, start: 1_000_000 });
    const provider = new ScriptedProvider(
      (_c, _r, call) => ({ toolCalls: [{ name: 'search', args: { query: `topic ${call + 1}` } }], delayMs: 1000 }),
      { clock },
    );
    const events: ContextEvent[] = [];
    const errors: string[] = [];
    const runtime = new AgentRuntime(
      { provider: 'scripted', maxIterations: 300, progress: { aiDriven: false } },
      {
        provider,
        tools: [search],
        clock,
        generateId: ids(),
        context: createContextPipeline({ window: { maxTokens: 8000 }, onEvent: (e) => events.push(e) }),
        onInternalError: (error, { where }) => errors.push(`${where}: ${String(error)}`),
      },
    );
    const result = await runtime.run('Survey 299 topics with the search tool');
    expect(errors).toEqual([]);
    expect(result.status).toBe('limit');
    expect(result.iterations).toBe(300);
    // The report comes from the tool-call log, which consolidation never touches: all 299 calls.
    expect(result.report?.stats).toMatchObject({ iterations: 300, toolCalls: 299 });
    expect(result.report?.task).toBe('Survey 299 topics with the search tool');
    expect(result.report?.completedWork.join('\n')).toMatch(/search/);
    const consolidations = events.filter((e) => e.type === 'context.consolidated');
    expect(consolidations.length).toBeGreaterThanOrEqual(20);
    for (const e of consolidations) {
      expect(e.beforeTokens).toBeGreaterThanOrEqual(0.8 * 8000);
      expect(e.afterTokens).toBeLessThan(e.beforeTokens);
    }
    // No model call was sent more than the window; every one after the first consolidation carries a summary.
    const cache = new MessageTokenCache(estimateTokenCounter);
    for (const request of provider.requests) expect(cache.total(request.messages)).toBeLessThanOrEqual(8000);
    expect(provider.requests.at(-1)?.messages[1]?.content.startsWith(SUMMARY_HEADER)).toBe(true);
    expect(provider.requests.at(-1)?.messages[1]?.content).toMatch(/Task: Survey 299 topics/);
  });

  it('a subsystem that throws changes nothing else about the run, and is reported once', async () => {
    const run = async (broken: boolean) => {
      const clock = new ManualClock({ autoAdvance: true, start: 1_000_000 });
      const steps: ScriptedStep[] = [
        { toolCalls: [{ name: 'search', args: { query: 'vendor pricing' } }], delayMs: 500 },
        { toolCalls: [{ name: 'read_page', args: { url: 'https://example.test' } }], delayMs: 500 },
        { content: 'Vendor A costs 10 USD a month.', delayMs: 500 },
      ];
      const provider = new ScriptedProvider(steps, { clock });
      const seen: ProgressEvent[] = [];
      const errors: string[] = [];
      const parts = createContextPipeline({ window: { maxTokens: 100_000 }, playbook: new Playbook({ clock }) });
      const context: ContextPart[] = broken
        ? parts.map((p) => (p.name === 'attention' ? { ...p, beforeRun: () => Promise.reject(new Error('attention is down')) } : p))
        : parts.filter((p) => p.name !== 'attention');
      const result = await new AgentRuntime(
        { provider: 'scripted', maxIterations: 10 },
        {
          provider,
          tools: [search, readPage],
          clock,
          generateId: ids(),
          sinks: [(e) => void seen.push(e)],
          context,
          onInternalError: (e, { where }) => errors.push(`${where}: ${String(e)}`),
        },
      ).run('Research vendor pricing');
      return { result, seen, errors, requests: provider.requests };
    };
    const healthy = await run(false);
    const broken = await run(true);
    expect(broken.errors).toEqual(['context.attention.beforeRun: Error: attention is down']);
    expect(broken.seen).toEqual(healthy.seen);
    expect(broken.requests).toEqual(healthy.requests);
    expect(broken.result).toEqual(healthy.result);
  });

  it("the playbook's history gives a familiar task an ETA from its first iteration, within the first runs' real durations", async () => {
    const clock = new ManualClock({ autoAdvance: true, start: 1_000_000 });
    const playbook = new Playbook({ store: new MemoryContextStore(), clock });
    const runOnce = async (rounds: number) => {
      const steps: ScriptedStep[] = [
        ...Array.from({ length: rounds - 1 }, (_, i): ScriptedStep => ({
          toolCalls: [{ name: 'search', args: { query: `vendor ${i}` } }],
          delayMs: 2000,
        })),
        { content: 'Vendor A is cheapest.', delayMs: 2000 },
      ];
      const provider = new ScriptedProvider(steps, { clock });
      const seen: ProgressEvent[] = [];
      const startedAt = clock.now();
      const result = await new AgentRuntime(
        { provider: 'scripted', maxIterations: 30, progress: { aiDriven: false } },
        {
          provider,
          tools: [search],
          clock,
          generateId: ids(),
          sinks: [(e) => void seen.push(e)],
          context: createContextPipeline({ playbook }),
        },
      ).run('Research the pricing of our vendors');
      expect(result.status).toBe('completed');
      return { seen, durationMs: clock.now() - startedAt, startedAt };
    };
    const first = [await runOnce(4), await runOnce(5), await runOnce(6)];
    const durations = first.map((r) => r.durationMs);
    expect(durations).toEqual([8000, 10_000, 12_000]);
    expect((await playbook.stats('Research the pricing of our vendors'))?.typicalIterations).toBe(5);

    const second = await runOnce(5);
    const secondIteration = second.seen.findIndex((e) => e.type === 'iteration' && e.index === 1);
    const early = second.seen.slice(0, secondIteration).find((e) => e.type === 'progress' && e.etaMs !== undefined);
    expect(early?.type).toBe('progress');
    if (early?.type !== 'progress' || early.etaMs === undefined) return;
    const predictedTotal = early.ts - second.startedAt + early.etaMs;
    expect(predictedTotal).toBeGreaterThanOrEqual(Math.min(...durations));
    expect(predictedTotal).toBeLessThanOrEqual(Math.max(...durations));
  });
});

describe('createContextPipeline options', () => {
  it.each([
    [{ windw: { maxTokens: 1000 } }, 'Invalid createContextPipeline options: (root): unrecognized key: "windw"'],
    [{ attention: 'yes' }, 'Invalid createContextPipeline options: attention: invalid input: expected boolean, received string'],
    [{ playbook: {} }, 'Invalid createContextPipeline options: playbook: expected a Playbook'],
    [{ window: { maxTokens: 10 } }, 'Invalid createContextWindow options: maxTokens: too small: expected number to be >=256'],
    [
      { memory: { weights: { summaries: -0.1 } } },
      'Invalid MemorySynthesizer options: weights.summaries: too small: expected number to be >=0',
    ],
    [
      { rateLimits: { limits: { openai: { requestsPerMinute: -1 } } } },
      'Invalid RateLimiter options: limits.openai.requestsPerMinute: too small: expected number to be >0',
    ],
  ])('refuses %j at construction, naming the field', (options, message) => {
    expect(() => createContextPipeline(options as never)).toThrow(message);
  });
});
