import { defineConfig, type UserConfig } from 'tsdown';

const config: UserConfig = defineConfig({
  entry: ['src/index.ts', 'src/browser.ts', 'src/servers.ts'],
  format: 'esm',
  dts: true,
  sourcemap: true,
  fixedExtension: false,
  clean: true,
});

export default config;
