import { defineConfig, type UserConfig } from 'tsdown';

const config: UserConfig[] = defineConfig([
  {
    entry: ['src/index.ts'],
    format: 'esm',
    dts: true,
    sourcemap: true,
    fixedExtension: false,
    clean: ['dist/*.js', 'dist/*.d.ts', 'dist/*.map'],
  },
  {
    // The page's script, for the browser: Preact and the page bundled into one file the server
    // sends as /app.js (same origin, so the CSP needs no inline script and no eval).
    entry: { app: 'src/page/app.tsx', 'live-worker': 'src/page/live-worker.ts' },
    outDir: 'dist/page',
    platform: 'browser',
    format: 'esm',
    target: 'chrome111',
    tsconfig: 'src/page/tsconfig.json',
    dts: false,
    minify: true,
    sourcemap: false,
    fixedExtension: false,
    clean: true,
    // Everything the page imports is bundled (zod too, a dependency of the server side), and nothing else may sneak in.
    deps: { alwaysBundle: [/^zod/, /^preact/], onlyBundle: [/^zod/, /^preact/] },
  },
]);

export default config;
