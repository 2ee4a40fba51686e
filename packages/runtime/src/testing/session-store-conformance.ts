// The behaviour every SessionStore must have; each backend's test runs it unchanged.
import { afterEach, describe, expect, it } from 'vitest';
import { errorCodeOf as codeOf } from './error-code.js';
import type { SessionStore } from '../session/session-store.js';

/** A session store under test. */
export interface SessionStoreHandle {
  store: SessionStore;
  reopen?: () => SessionStore | Promise<SessionStore>;
  cleanup?: () => void | Promise<void>;
}

/**
 * Makes a fresh, empty session store whose timestamps come from `now`: build it with
 * `clock: { ...systemClock, now }`.
 */
export type SessionStoreFactory = (now: () => number) => SessionStoreHandle | Promise<SessionStoreHandle>;

/** The behaviour every `SessionStore` must have, as a vitest suite run against stores made by `factory`. */
export function sessionStoreConformance(name: string, factory: SessionStoreFactory): void {
  describe(`${name} (SessionStore conformance)`, () => {
    let t = 1_000;
    let handle: SessionStoreHandle;
    const open = async (): Promise<SessionStore> => {
      t = 1_000;
      handle = await factory(() => t);
      return handle.store;
    };
    afterEach(async () => {
      await handle.cleanup?.();
    });

    it('creates an empty session, then appends each run and adds up its spend', async () => {
      const store = await open();
      expect(await store.get('s1')).toBeUndefined();
      expect(await store.create('s1')).toEqual({
        id: 's1',
        createdAt: 1_000,
        updatedAt: 1_000,
        messageCount: 0,
        spentUsd: 0,
        calls: 0,
        runs: 0,
        messages: [],
      });
      t = 2_000;
      await store.recordRun('s1', {
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: 'hello' },
        ],
        spentUsd: 0.25,
        calls: 1,
      });
      t = 3_000;
      await store.recordRun('s1', { messages: [{ role: 'user', content: 'again', extra: undefined }], spentUsd: 0.5, calls: 2 });
      expect(await store.get('s1')).toEqual({
        id: 's1',
        createdAt: 1_000,
        updatedAt: 3_000,
        messageCount: 3,
        spentUsd: 0.75,
        calls: 3,
        runs: 2,
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: 'hello' },
          { role: 'user', content: 'again' },
        ],
      });
    });

    it('refuses duplicates, unknown ids and bad input, writing nothing', async () => {
      const store = await open();
      await store.create('s1');
      expect(await codeOf(() => store.create('s1'))).toBe('SESSION_EXISTS');
      expect(await codeOf(() => store.create(''))).toBe('SESSION_INVALID');
      expect(await codeOf(() => store.recordRun('nope', { messages: [], spentUsd: 0, calls: 0 }))).toBe('SESSION_NOT_FOUND');
      expect(await codeOf(() => store.recordRun('s1', { messages: ['ok', 1n], spentUsd: 0, calls: 0 }))).toBe('SESSION_INVALID');
      await expect(Promise.resolve().then(() => store.recordRun('s1', { messages: [], spentUsd: -1, calls: 0 }))).rejects.toThrow(
        /run\.spentUsd/,
      );
      expect(await store.get('s1')).toMatchObject({ messageCount: 0, runs: 0, spentUsd: 0 });
    });

    it('lists sessions oldest update first and deletes them', async () => {
      const store = await open();
      await store.create('a');
      t = 2_000;
      await store.create('b');
      t = 3_000;
      await store.recordRun('a', { messages: ['m'], spentUsd: 0, calls: 1 });
      expect((await store.list()).map((s) => [s.id, s.messageCount])).toEqual([
        ['b', 0],
        ['a', 1],
      ]);
      expect(await store.delete('a')).toBe(true);
      expect(await store.delete('a')).toBe(false);
      expect(await store.get('a')).toBeUndefined();
      expect((await store.list()).map((s) => s.id)).toEqual(['b']);
    });

    it('keeps sessions across a reopen when the store is durable', async (ctx) => {
      const store = await open();
      if (handle.reopen === undefined) {
        ctx.skip();
        return;
      }
      await store.create('s1');
      await store.recordRun('s1', { messages: ['m0', { n: 1 }], spentUsd: 1.5, calls: 2 });
      const before = await store.get('s1');
      expect(await (await handle.reopen()).get('s1')).toEqual(before);
    });
  });
}
