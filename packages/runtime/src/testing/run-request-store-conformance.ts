// The behaviour every RunRequestStore must have; each backend's test runs it unchanged.
import { afterEach, describe, expect, it } from 'vitest';
import { errorCodeOf as codeOf } from './error-code.js';
import { RUN_REQUEST_LEASE_MS, type RunRequestStore } from '../checkpoint/run-request-store.js';

/** A run request store under test, and how to let it go. */
export interface RunRequestStoreHandle {
  store: RunRequestStore;
  /** A second store on the same storage (another process's view), to show claims are exclusive. */
  second?: () => RunRequestStore | Promise<RunRequestStore>;
  cleanup?: () => void | Promise<void>;
}

/** Makes a fresh, empty run request store whose timestamps come from `now` (`clock: { ...systemClock, now }`). */
export type RunRequestStoreFactory = (now: () => number) => RunRequestStoreHandle | Promise<RunRequestStoreHandle>;

/** The behaviour every `RunRequestStore` must have, as a vitest suite run against stores made by `factory`. */
export function runRequestStoreConformance(name: string, factory: RunRequestStoreFactory): void {
  describe(`${name} (RunRequestStore conformance)`, () => {
    let t = 1_000;
    let handle: RunRequestStoreHandle;
    const open = async (): Promise<RunRequestStore> => {
      t = 1_000;
      handle = await factory(() => t);
      return handle.store;
    };
    afterEach(async () => {
      await handle.cleanup?.();
    });

    it('writes a request once per key: the second put returns the first', async () => {
      const store = await open();
      const first = await store.put({ key: 'continue:r1', action: 'continue', runId: 'r1', checkpointId: 'c1' });
      t = 2_000;
      const again = await store.put({ key: 'continue:r1', action: 'continue', runId: 'r1', checkpointId: 'c1' });
      expect(first.created).toBe(true);
      expect(again.created).toBe(false);
      expect(again.request).toEqual(first.request);
      expect(first.request).toMatchObject({ key: 'continue:r1', action: 'continue', runId: 'r1', checkpointId: 'c1', status: 'pending' });
      expect(first.request.createdAt).toBe(1_000);
      expect((await store.list()).map((r) => r.key)).toEqual(['continue:r1']);
    });

    it('claims the oldest pending request the filter allows, once, then records how it ended', async () => {
      const store = await open();
      await store.put({ key: 'cancel:r0', action: 'cancel', runId: 'r0', checkpointId: 'c0' });
      await store.put({ key: 'resume:r1', action: 'resume', runId: 'r1', checkpointId: 'c1' });
      await store.put({ key: 'continue:r2', action: 'continue', runId: 'r2', checkpointId: 'c2' });
      t = 5_000;
      const claimed = await store.claim('w1', { actions: ['continue', 'resume'] });
      expect(claimed).toMatchObject({ key: 'resume:r1', status: 'claimed', worker: 'w1', updatedAt: 5_000 });
      expect((await store.claim('w2', { actions: ['continue', 'resume'] }))?.key).toBe('continue:r2');
      expect(await store.claim('w2', { actions: ['continue', 'resume'] })).toBeUndefined();
      expect(await store.claim('w1', { actions: ['cancel'], runIds: ['other'] })).toBeUndefined();
      expect(await store.claim('w1', { actions: ['cancel'], runIds: [] })).toBeUndefined();
      expect((await store.claim('w1', { actions: ['cancel'], runIds: ['other', 'r0'] }))?.key).toBe('cancel:r0');
      await store.finish(claimed?.id ?? '', { status: 'done', outcome: 'resumed', resultRunId: 'r1' });
      expect(await store.list({ runId: 'r1' })).toEqual([
        expect.objectContaining({ key: 'resume:r1', status: 'done', outcome: 'resumed', resultRunId: 'r1', worker: 'w1' }),
      ]);
      expect((await store.list()).map((r) => r.status)).toEqual(['claimed', 'done', 'claimed']);
    });

    it('gives each request to one claimer when two ask at once', async () => {
      const store = await open();
      const other = (await handle.second?.()) ?? store;
      for (let i = 0; i < 6; i++) await store.put({ key: `resume:r${i}`, action: 'resume', runId: `r${i}`, checkpointId: `c${i}` });
      const taken = await Promise.all(
        Array.from({ length: 10 }, (_, i) => Promise.resolve((i % 2 === 0 ? store : other).claim(`w${i}`, { actions: ['resume'] }))),
      );
      const keys = taken.flatMap((r) => (r === undefined ? [] : [r.key])).sort();
      expect(keys).toEqual(['resume:r0', 'resume:r1', 'resume:r2', 'resume:r3', 'resume:r4', 'resume:r5']);
    });

    it('keeps a claim while its worker renews it, and lets exactly one other worker take it once it expires', async () => {
      const store = await open();
      const other = (await handle.second?.()) ?? store;
      await store.put({ key: 'resume:r1', action: 'resume', runId: 'r1', checkpointId: 'c1' });
      await store.put({ key: 'continue:r2', action: 'continue', runId: 'r2', checkpointId: 'c2' });
      t = 5_000;
      const first = await store.claim('w1', { actions: ['resume'] }, { leaseMs: 1_000 });
      expect(first).toMatchObject({ key: 'resume:r1', status: 'claimed', worker: 'w1', claimExpiresAt: 6_000 });
      t = 5_900;
      expect(await other.claim('w2', { actions: ['resume'] }, { leaseMs: 1_000 })).toBeUndefined();
      // w1 renews its claim; a renewal of a request it does not hold changes nothing.
      expect(await store.renew('w1', [first?.id ?? '', 'nope', '999999'], { leaseMs: 1_000 })).toEqual([first?.id]);
      expect(await other.renew('w2', [first?.id ?? ''], { leaseMs: 1_000 })).toEqual([]);
      t = 6_800;
      expect(await other.claim('w2', { actions: ['resume'] }, { leaseMs: 1_000 })).toBeUndefined();
      expect((await store.list({ runId: 'r1' }))[0]).toMatchObject({ status: 'claimed', worker: 'w1', claimExpiresAt: 6_900 });
      // w1 died: its claim expires; of four workers asking at once, one takes it again, once.
      t = 7_000;
      const again = await Promise.all(
        ['w2', 'w3', 'w4', 'w5'].map((w, i) =>
          Promise.resolve((i % 2 === 0 ? store : other).claim(w, { actions: ['resume'] }, { leaseMs: 1_000 })),
        ),
      );
      const taken = again.filter((r) => r !== undefined);
      expect(taken.map((r) => [r.key, r.status, r.claimExpiresAt])).toEqual([['resume:r1', 'claimed', 8_000]]);
      expect(await store.claim('w6', { actions: ['resume'] })).toBeUndefined();
      expect(await store.renew('w1', [first?.id ?? ''])).toEqual([]);
      expect((await store.list({ runId: 'r1' }))[0]).toMatchObject({ worker: taken[0]?.worker, claimExpiresAt: 8_000 });
      // A finished request is never taken again, however long ago it was claimed.
      await store.finish(first?.id ?? '', { status: 'done', outcome: 'resumed' });
      t = 100_000;
      expect(await store.claim('w7', { actions: ['resume'] })).toBeUndefined();
      const done = (await store.list({ runId: 'r1' }))[0];
      expect(done).toMatchObject({ status: 'done', outcome: 'resumed' });
      expect(done?.claimExpiresAt).toBeUndefined();
      // The default lease is RUN_REQUEST_LEASE_MS.
      expect(await store.claim('w8', { actions: ['continue'] })).toMatchObject({
        key: 'continue:r2',
        claimExpiresAt: 100_000 + RUN_REQUEST_LEASE_MS,
      });
    });

    it('refuses a lease that is not a positive whole number of ms with CHECKPOINT_INVALID', async () => {
      const store = await open();
      await store.put({ key: 'resume:r1', action: 'resume', runId: 'r1', checkpointId: 'c1' });
      for (const leaseMs of [0, -1, 1.5, Number.NaN, Infinity, 86_400_001]) {
        expect(await codeOf(() => store.claim('w1', { actions: ['resume'] }, { leaseMs }))).toBe('CHECKPOINT_INVALID');
        expect(await codeOf(() => store.renew('w1', ['1'], { leaseMs }))).toBe('CHECKPOINT_INVALID');
      }
      expect((await store.list()).map((r) => r.status)).toEqual(['pending']);
    });

    it('refuses a request that does not validate with CHECKPOINT_INVALID', async () => {
      const store = await open();
      expect(await codeOf(() => store.put({ key: '', action: 'resume', runId: 'r', checkpointId: 'c' }))).toBe('CHECKPOINT_INVALID');
      expect(await codeOf(() => store.put({ key: 'k', action: 'delete' as never, runId: 'r', checkpointId: 'c' }))).toBe(
        'CHECKPOINT_INVALID',
      );
      expect(await store.list()).toEqual([]);
    });
  });
}
