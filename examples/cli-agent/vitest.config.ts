import { defineProject, type UserWorkspaceConfig } from 'vitest/config';

// Type-level tests (*.test-d.ts) are checked by the package's `typecheck` task (tsc), once.
const config: UserWorkspaceConfig = defineProject({
  test: {
    name: 'cli-agent',
    include: ['src/**/*.test.ts'],
    // A hang guard, not a time limit: each test runs the demo as a child process two or three
    // times, which took 5-16 s here and can take several times that on a loaded machine.
    testTimeout: 180_000,
  },
});

export default config;
