import { defineProject, type UserWorkspaceConfig } from 'vitest/config';

const config: UserWorkspaceConfig = defineProject({
  test: {
    name: 'cli',
    include: ['src/**/*.test.ts'],
    // A guard against hangs on a loaded two-core machine, not a timing assertion.
    testTimeout: 60_000,
  },
});

export default config;
