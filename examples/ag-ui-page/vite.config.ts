import { resolve } from 'node:path';
import { defineConfig, type UserConfig } from 'vite';

// The page lives in src/page; its build goes to dist/page, which the server serves.
const config: UserConfig = defineConfig({
  root: resolve(import.meta.dirname, 'src/page'),
  base: './',
  logLevel: 'warn',
  build: {
    outDir: resolve(import.meta.dirname, 'dist/page'),
    emptyOutDir: true,
    target: 'es2022',
  },
});

export default config;
