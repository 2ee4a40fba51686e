import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startLineProcess, type LineProcess } from '@headway/test-utils';
import { build } from 'esbuild';

/** A fixture process speaking lines on stdout. */
export type Fixture = LineProcess<string>;

/** Bundles `worker.fixture.ts` (pg stays external) into a temp dir; returns its path and a cleanup. */
export async function bundleWorker(): Promise<{ file: string; cleanup: () => void }> {
  const dir = mkdtempSync(join(tmpdir(), 'headway-pg-worker-'));
  const entry = fileURLToPath(new URL('./worker.fixture.ts', import.meta.url));
  const require = createRequire(entry);
  const file = join(dir, 'worker.mjs');
  await build({
    entryPoints: [entry],
    outfile: file,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'error',
    plugins: [
      {
        name: 'pg-external',
        setup: (b) => {
          b.onResolve({ filter: /^pg$/ }, () => ({ path: require.resolve('pg'), external: true }));
        },
      },
    ],
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  });
  return {
    file,
    cleanup: () => {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Starts the bundled worker with `args`. */
export function startWorker(file: string, args: string[]): Fixture {
  return startLineProcess(process.execPath, [file, ...args], { name: 'worker' });
}
