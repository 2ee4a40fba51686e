import { defineConfig, type UserConfig } from 'tsdown';

const config: UserConfig = defineConfig({
  entry: {
    index: 'src/index.ts',
    testing: 'src/testing/index.ts',
    'testing-conformance': 'src/testing/conformance.ts',
    'store-kit': 'src/store-kit.ts',
    'provider-kit': 'src/provider-kit.ts',
    'bridge-kit': 'src/bridge-kit.ts',
    // Spawned by the crash suite: it stays a file of its own beside testing-conformance.js.
    'crash-child': 'src/testing/crash-child.ts',
  },
  format: 'esm',
  dts: true,
  sourcemap: true,
  fixedExtension: false,
  clean: true,
  deps: { neverBundle: ['vitest', 'esbuild'] },
});

export default config;
