import { defineProject, type UserWorkspaceConfig } from 'vitest/config';

// Type-level tests (*.test-d.ts) are checked by the package's `typecheck` task (tsc), once.
const config: UserWorkspaceConfig = defineProject({
  test: {
    name: 'distributed',
    include: ['src/**/*.test.ts'],
    // A hang guard, not a time limit: the example runs as a child process, several times slower on a loaded machine.
    testTimeout: 180_000,
    hookTimeout: 60_000,
  },
});

export default config;
