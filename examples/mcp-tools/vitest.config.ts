import { defineProject, type UserWorkspaceConfig } from 'vitest/config';

// Type-level tests (*.test-d.ts) are checked by the package's `typecheck` task (tsc), once.
const config: UserWorkspaceConfig = defineProject({
  test: {
    name: 'mcp-tools',
    include: ['src/**/*.test.ts'],
    // Each case starts tsx child processes (the MCP case, three of them): a loaded machine
    // (load ~90 on 2 cores) took 60 s. The limit guards a hang, not the speed.
    testTimeout: 240_000,
  },
});

export default config;
