import { HeadwayError } from '@headway/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../loop/clock.js';
import { ProviderError } from './provider-error.js';
import { ProviderRegistry } from './provider-registry.js';
import { backoffDelay, isRetryable, createRetryPolicy } from './retry-policy.js';
import { ScriptedProvider } from './scripted-provider.js';

const request = { messages: [{ role: 'user' as const, content: 'hi' }], tools: [] };
const unavailable = new ProviderError('PROVIDER_REQUEST_FAILED', 'HTTP 503', { retryable: true, status: 503 });

describe('backoff', () => {
  it('doubles per attempt, with equal jitter, capped, and honours retry-after', () => {
    const policy = createRetryPolicy({ baseDelayMs: 100, maxDelayMs: 1_000 });
    expect([0, 1, 2, 3, 4, 5].map((a) => backoffDelay(policy, a, () => 0))).toEqual([50, 100, 200, 400, 500, 500]);
    expect([0, 1, 2, 3, 4, 5].map((a) => backoffDelay(policy, a, () => 1))).toEqual([100, 200, 400, 800, 1_000, 1_000]);
    expect(backoffDelay(policy, 0, () => 0.5, 5_000)).toBe(5_000);
  });

  it('always lies between half the cap and the cap (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 30 }), fc.double({ min: 0, max: 1, noNaN: true }), (attempt, r) => {
        const policy = createRetryPolicy();
        const cap = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
        const d = backoffDelay(policy, attempt, () => r);
        return d >= Math.floor(cap / 2) && d <= Math.ceil(cap);
      }),
    );
  });

  it('classifies retryable failures', () => {
    expect(isRetryable({ status: 429 })).toBe(true);
    expect(isRetryable({ status: 503 })).toBe(true);
    expect(isRetryable({ status: 400 })).toBe(false);
    expect(isRetryable(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }))).toBe(true);
    expect(isRetryable(new TypeError('fetch failed'))).toBe(true);
    expect(isRetryable(new DOMException('aborted', 'AbortError'))).toBe(false);
    expect(isRetryable(new Error('bug'))).toBe(false);
    expect(isRetryable(unavailable)).toBe(true);
  });
});

describe('ProviderRegistry', () => {
  it('falls back to the first available provider; none available is a ProviderError', async () => {
    const a = new ScriptedProvider([{ content: 'from a' }], { name: 'a', available: false });
    const b = new ScriptedProvider([{ content: 'from b' }], { name: 'b' });
    const registry = new ProviderRegistry([a, b], { preferred: 'a' });
    expect(registry.resolve()).toBe('b');
    expect((await registry.complete(request)).content).toBe('from b');
    b.setAvailable(false);
    expect(() => registry.resolve()).toThrow(
      expect.objectContaining({
        code: 'PROVIDER_UNAVAILABLE',
        message: 'No provider is available (a: not available; b: not available)',
      }) as Error,
    );
    await expect(registry.complete(request)).rejects.toMatchObject({ code: 'PROVIDER_UNAVAILABLE' });
  });

  it('switchProvider checks availability and gives a fresh breaker', () => {
    const a = new ScriptedProvider([], { name: 'a' });
    const b = new ScriptedProvider([], { name: 'b', available: false });
    const registry = new ProviderRegistry([a, b]);
    expect(() => {
      registry.switchProvider('c');
    }).toThrow(/No provider named "c"/);
    expect(() => {
      registry.switchProvider('b');
    }).toThrow(expect.objectContaining({ code: 'PROVIDER_UNAVAILABLE' }) as Error);
    registry.breaker('a')?.recordFailure();
    registry.switchProvider('a');
    expect(registry.breaker('a')?.failures).toBe(0);
    expect(registry.preferred).toBe('a');
  });

  it('retries retryable failures and stops at the first non-retryable one', async () => {
    const clock = new ManualClock({ autoAdvance: true });
    const retries: number[] = [];
    const flaky = new ScriptedProvider([{ error: unavailable }, { error: unavailable }, { content: 'third time lucky' }], {
      name: 'flaky',
    });
    const registry = new ProviderRegistry([flaky], { clock, random: () => 0, onRetry: (i) => retries.push(i.delayMs) });
    expect((await registry.complete(request)).content).toBe('third time lucky');
    expect(retries).toEqual([250, 500]);
    expect(clock.now()).toBe(750);

    const bad = new ScriptedProvider(
      [{ error: new ProviderError('PROVIDER_REQUEST_FAILED', 'HTTP 401', { status: 401 }) }, { content: 'never' }],
      { name: 'bad' },
    );
    const r2 = new ProviderRegistry([bad], { clock });
    await expect(r2.complete(request)).rejects.toMatchObject({ message: 'HTTP 401' });
    expect(bad.calls).toBe(1);
  });

  it('an open circuit fails fast without calling the provider', async () => {
    const clock = new ManualClock({ autoAdvance: true });
    const down = new ScriptedProvider(() => ({ error: unavailable }), { name: 'down' });
    const registry = new ProviderRegistry([down], {
      clock,
      retry: { maxRetries: 10 },
      circuitBreaker: { failureThreshold: 3, cooldownMs: 60_000 },
    });
    const error = await registry.complete(request).catch((e: unknown) => e);
    expect(HeadwayError.isInstance(error, 'PROVIDER_CIRCUIT_OPEN')).toBe(true);
    expect(down.calls).toBe(3);
    await expect(registry.complete(request)).rejects.toMatchObject({ code: 'PROVIDER_CIRCUIT_OPEN' });
    expect(down.calls).toBe(3);
  });

  it('streams retry only before the first chunk', async () => {
    const clock = new ManualClock({ autoAdvance: true });
    const provider = new ScriptedProvider([{ error: unavailable }, { content: 'hello world' }], { name: 's' });
    const registry = new ProviderRegistry([provider], { clock });
    const chunks: string[] = [];
    for await (const c of registry.stream(request)) if (c.type === 'text-delta') chunks.push(c.text);
    expect(chunks).toEqual(['hello ', 'world']);
    expect(provider.calls).toBe(2);
  });
});
