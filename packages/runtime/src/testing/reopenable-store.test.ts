import { describe, expect, it } from 'vitest';
import { reopenableStore } from './reopenable-store.js';

describe('reopenableStore', () => {
  it('opens the first store, closes it on reopen, and closes the one in use on cleanup', async () => {
    const log: string[] = [];
    let n = 0;
    const handle = await reopenableStore(
      (first) => {
        n += 1;
        log.push(`open ${n}${first ? ' (first)' : ''}`);
        return { n };
      },
      (store) => log.push(`close ${store.n}`),
    );
    expect(handle.store).toEqual({ n: 1 });
    expect(await handle.reopen()).toEqual({ n: 2 });
    await handle.cleanup();
    expect(log).toEqual(['open 1 (first)', 'close 1', 'open 2', 'close 2']);
  });
});
