import { defineConfig, type ViteUserConfig } from 'vitest/config';

// Root view of every package's tests: `pnpm vitest` runs them all in one process.
// The test command runs each package on its own through turbo so results are cached.
const config: ViteUserConfig = defineConfig({
  test: {
    projects: ['packages/*', 'examples/*'],
  },
});

export default config;
