// The worker's claims are leases: a worker renews them on every poll while it carries a request
// out; one that dies (stops polling) loses them once they expire, and another worker takes the
// request up, once. Real runtimes on a real SQLite file; the store's clock is a ManualClock.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HeadwayError, ManualClock } from '@headway/protocol';
import { AgentRuntime, defineTool, type ContinueFrom, type RunResult } from '@headway/runtime';
import { ScriptedProvider } from '@headway/runtime/testing';
import { SqliteCheckpointStore } from '@headway/store-sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createRunRequestWorker, type RunRequestWorkerErrorContext } from './run-request-worker.js';

const dir = mkdtempSync(join(tmpdir(), 'headway-request-worker-'));
const storeClock = new ManualClock({ start: 1_000_000 });
const runClock = new ManualClock({ start: 1_000_000 });
/** A clock nobody advances: a scripted reply delayed on it never comes (a worker that hangs). */
const never = new ManualClock({ start: 0 });
const store = new SqliteCheckpointStore(join(dir, 'agent.db'), { clock: storeClock });
const search = defineTool({ name: 'search', description: 'finds things', parameters: z.object({ q: z.string() }), execute: () => 'found' });

afterAll(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

function runtime(prefix: string, script: ConstructorParameters<typeof ScriptedProvider>[0], maxIterations = 10): AgentRuntime {
  let n = 0;
  return new AgentRuntime(
    { provider: 'scripted', maxIterations },
    {
      provider: new ScriptedProvider(script, { clock: never }),
      tools: [search],
      checkpointStore: store,
      generateId: () => `${prefix}-${String((n += 1))}`,
      clock: runClock,
    },
  );
}

describe('createRunRequestWorker: claims are leases', () => {
  it('a worker that dies mid-request loses its claim when it expires; the other worker carries the request out, once', async () => {
    const limited: RunResult = await runtime(
      'limit',
      () => ({ content: 'again', toolCalls: [{ name: 'search', args: { q: 'x' } }] }),
      2,
    ).run('search forever');
    expect([limited.status, limited.report === undefined]).toEqual(['limit', false]);
    const from: ContinueFrom = { runId: limited.runId, report: limited.report! };
    const requests = store.runRequests();
    requests.put({ key: `continue:${limited.runId}`, action: 'continue', runId: limited.runId, checkpointId: 'limit-2' });

    const errorsA: [string, string][] = [];
    const onInternalError = (error: unknown, { where }: RunRequestWorkerErrorContext): void => {
      errorsA.push([where, HeadwayError.isInstance(error) ? `${error.code}: ${error.message}` : String(error)]);
    };
    // worker-a's model never answers: it is carrying the request out when it dies.
    const hangs = (_: unknown, __: unknown, call: number) =>
      call === 0 ? { toolCalls: [{ name: 'search', args: { q: 'x' } }] } : { content: 'late', delayMs: 1e12 };
    const a = createRunRequestWorker({
      runtime: runtime('a', hangs),
      requests,
      worker: 'worker-a',
      reports: () => from,
      claimLeaseMs: 3_000,
      onInternalError,
    });
    const b = createRunRequestWorker({
      runtime: runtime('b', [{ content: 'picked up where it stopped' }]),
      requests,
      worker: 'worker-b',
      reports: () => from,
      claimLeaseMs: 3_000,
    });

    expect(await a.poll()).toBe(1);
    expect(requests.list()[0]).toMatchObject({ status: 'claimed', worker: 'worker-a', claimExpiresAt: 1_003_000 });
    expect(await b.poll()).toBe(0);
    // Alive, worker-a renews its claim on every poll: worker-b still finds nothing to take.
    storeClock.advanceSync(2_000);
    expect(await a.poll()).toBe(0);
    expect(requests.list()[0]).toMatchObject({ worker: 'worker-a', claimExpiresAt: 1_005_000 });
    storeClock.advanceSync(2_999);
    expect(await b.poll()).toBe(0);

    // worker-a dies (it polls no more); once its claim has expired, worker-b takes the request.
    storeClock.advanceSync(1);
    expect(await b.poll()).toBe(1);
    expect(await b.poll()).toBe(0);
    await b.idle();
    const [request] = requests.list();
    expect(request).toMatchObject({ status: 'done', worker: 'worker-b', resultRunId: 'b-1' });
    expect(request?.outcome).toBe('continued as run b-1 on worker-b: completed');
    expect(request?.claimExpiresAt).toBeUndefined();

    // Had worker-a only stalled, its next poll says it lost the claim, once.
    expect(await a.poll()).toBe(0);
    expect(await a.poll()).toBe(0);
    expect(errorsA).toEqual([
      ['requests.renew', `DASHBOARD_CONFLICT: request ${request?.id ?? ''}: worker-a lost its claim; another worker may carry it out`],
    ]);
  });

  it('refuses a claim lease that is not a whole number of ms from 3 to a day', () => {
    for (const claimLeaseMs of [0, 2, 1.5, Number.NaN, 86_400_001]) {
      expect(() =>
        createRunRequestWorker({ runtime: runtime('x', []), requests: store.runRequests(), worker: 'w', reports: dir, claimLeaseMs }),
      ).toThrow(expect.objectContaining({ code: 'DASHBOARD_INVALID_OPTIONS' }));
    }
  });
});
