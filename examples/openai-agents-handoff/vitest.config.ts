import { defineProject, type UserWorkspaceConfig } from 'vitest/config';

// Type-level tests (*.test-d.ts) are checked by the package's `typecheck` task (tsc), once.
const config: UserWorkspaceConfig = defineProject({
  test: {
    name: 'openai-agents-handoff',
    include: ['src/**/*.test.ts'],
    testTimeout: 60_000,
  },
});

export default config;
