// The behaviour every RunRequestStore must have; each backend's test runs it unchanged.
import { afterEach, describe, expect, it } from 'vitest';
import { errorCodeOf as codeOf } from './error-code.js';
import type { RunRequestStore } from '../checkpoint/run-request-store.js';

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
