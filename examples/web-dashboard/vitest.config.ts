import { defineProject, type UserWorkspaceConfig } from 'vitest/config';

// Type-level tests (*.test-d.ts) are checked by the package's `typecheck` task (tsc), once.
const config: UserWorkspaceConfig = defineProject({
  test: {
    name: 'web-dashboard',
    include: ['src/**/*.test.ts'],
    // A hang guard, not a time limit: the example runs as a child process, several times slower on a loaded machine.
    testTimeout: 180_000,
    hookTimeout: 180_000, // a hook may build a page and launch Chromium: one launch took 28 s on a busy machine
  },
});

export default config;
