import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reopenableStore, type ReopenableStore } from '@headway/runtime/testing/conformance';
import { afterEach } from 'vitest';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A database path in a fresh temporary directory, removed after the test. */
export function tempDatabasePath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'headway-store-'));
  dirs.push(dir);
  return join(dir, 'agent.db');
}

/** A conformance-suite handle for a store made by `open` on a fresh database file; `reopen` closes it and opens the file again. */
export function freshStore<S extends { close(): void }>(open: (path: string) => S): Promise<ReopenableStore<S>> {
  const path = tempDatabasePath();
  return reopenableStore(
    () => open(path),
    (store) => {
      store.close();
    },
  );
}
