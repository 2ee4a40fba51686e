import { defineConfig, type UserConfig } from 'tsdown';

const config: UserConfig = defineConfig({
  entry: { index: 'src/index.ts', html: 'src/html/index.ts' },
  format: 'esm',
  dts: true,
  sourcemap: true,
  fixedExtension: false,
  clean: true,
});

export default config;
