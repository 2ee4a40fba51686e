import { vi } from 'vitest';
import { HeadwayError } from '@headway/protocol';
import type { ProgressEvent } from '@headway/protocol';
import { AgentRuntime, ManualClock } from '@headway/runtime';
import { ScriptedProvider } from '@headway/runtime/testing';
import { describe, expect, it } from 'vitest';
import type { ContextEvent } from '../context-event.js';
import { RateLimiter, createRateLimiterPart, type RateLimitWait } from './rate-limiter.js';

describe('RateLimiter', () => {
  it('lets requests through up to the per-minute limit, then waits for the oldest to age out', async () => {
    const clock = new ManualClock({ start: 0 });
    const limiter = new RateLimiter({ limits: { openai: { requestsPerMinute: 2 } }, clock });
    const waits: RateLimitWait[] = [];
    await limiter.acquire('openai', 10);
    await clock.advance(10_000);
    await limiter.acquire('openai', 10);
    let third = false;
    const pending = limiter.acquire('openai', 10, { onWait: (w) => waits.push(w) }).then(() => (third = true));
    await clock.advance(49_999);
    expect(third).toBe(false);
    await clock.advance(1);
    await pending;
    expect(third).toBe(true);
    expect(waits).toEqual([{ provider: 'openai', limit: 'requests', waitMs: 50_000 }]);
    // Other providers have their own limits (none here).
    expect(limiter.delay('anthropic', 1_000_000)).toBeUndefined();
  });

  it('waits on tokens per minute until enough usage has aged out; one call bigger than the budget goes alone', async () => {
    const clock = new ManualClock({ start: 0 });
    const limiter = new RateLimiter({ limits: {}, defaultLimit: { tokensPerMinute: 1000 }, clock });
    await limiter.acquire('x', 600);
    await clock.advance(5000);
    await limiter.acquire('x', 300);
    expect(limiter.delay('x', 200)).toEqual({ waitMs: 55_000, limit: 'tokens' });
    expect(limiter.delay('x', 100)).toBeUndefined();
    await clock.advance(60_000);
    expect(limiter.delay('x', 5000)).toBeUndefined();
  });

  it('a wait ends when the signal aborts', async () => {
    const clock = new ManualClock({ start: 0 });
    const limiter = new RateLimiter({ limits: { p: { requestsPerMinute: 1 } }, clock });
    await limiter.acquire('p', 1);
    const controller = new AbortController();
    const waiting = limiter.acquire('p', 1, { signal: controller.signal });
    controller.abort(new Error('cancelled by the user'));
    await expect(waiting).rejects.toThrow('cancelled by the user');
  });

  it.each([
    [
      { limits: { openai: { requestsPerMinute: 0 } } },
      'Invalid RateLimiter options: limits.openai.requestsPerMinute: too small: expected number to be >0',
    ],
    [
      { limits: { openai: { tokensPerMinute: 1.5 } } },
      'Invalid RateLimiter options: limits.openai.tokensPerMinute: invalid input: expected int, received number',
    ],
    [{ limits: { openai: { rpm: 5 } } }, 'Invalid RateLimiter options: limits.openai: unrecognized key: "rpm"'],
  ])('refuses %j naming the field', (options, message) => {
    let error: unknown;
    try {
      new RateLimiter(options as never);
    } catch (e) {
      error = e;
    }
    expect(HeadwayError.isInstance(error, 'CONTEXT_INVALID_CONFIG')).toBe(true);
    expect((error as Error).message).toBe(message);
  });
});

describe('createRateLimiterPart in a run', () => {
  it('waits instead of failing, shows it as the progress message, and a cancel ends the wait', async () => {
    const clock = new ManualClock({ start: 1_000_000 });
    const provider = new ScriptedProvider([{ content: 'one' }, { content: 'two' }], { clock });
    const limiter = new RateLimiter({ limits: { scripted: { requestsPerMinute: 1 } }, clock });
    const events: ContextEvent[] = [];
    const seen: ProgressEvent[] = [];
    const runtime = new AgentRuntime(
      { provider: 'scripted', progress: { aiDriven: false } },
      {
        provider,
        clock,
        sinks: [(e) => void seen.push(e)],
        context: [createRateLimiterPart(limiter, { clock, onEvent: (e) => events.push(e) })],
      },
    );
    expect((await runtime.run('first')).text).toBe('one');
    const second = runtime.run('second');
    await vi.waitFor(() => {
      expect(
        seen.some((e) => e.type === 'progress' && e.message === 'Waiting 60 s for the scripted rate limit (requests per minute)'),
      ).toBe(true);
    });
    await clock.advance(60_000);
    const result = await second;
    expect(result.status).toBe('completed');
    expect(events).toEqual([
      { type: 'rate-limit.waited', runId: result.runId, iteration: 0, provider: 'scripted', limit: 'requests', waitedMs: 60_000 },
    ]);

    const controller = new AbortController();
    const third = runtime.run('third', { signal: controller.signal });
    await vi.waitFor(() => {
      expect(seen.filter((e) => e.type === 'progress' && e.message?.startsWith('Waiting') === true).length).toBe(2);
    });
    controller.abort();
    expect((await third).status).toBe('cancelled');
  });
});
