import { defineProject, type UserWorkspaceConfig } from 'vitest/config';

// Type-level tests (*.test-d.ts) are checked by the package's `typecheck` task (tsc), once.
const config: UserWorkspaceConfig = defineProject({
  test: {
    name: 'test-utils',
    include: ['src/**/*.test.ts'],
    // A guard against hangs on a loaded two-core machine, not a timing assertion.
    testTimeout: 30_000,
  },
});

export default config;
