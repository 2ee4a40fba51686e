import { defineProject, type UserWorkspaceConfig } from 'vitest/config';

const config: UserWorkspaceConfig = defineProject({
  test: {
    name: 'limit-handoff',
    include: ['src/**/*.test.ts'],
    testTimeout: 60_000,
    typecheck: { enabled: true, include: ['src/**/*.test-d.ts'] },
  },
});

export default config;
