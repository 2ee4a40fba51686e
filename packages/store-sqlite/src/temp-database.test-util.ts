import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
