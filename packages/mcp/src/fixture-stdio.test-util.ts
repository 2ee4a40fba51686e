// The fixture server as a child process over stdio: `tsx fixture-stdio.test-util.ts`.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createFixtureServer } from './fixture-server.test-util.js';

await createFixtureServer().connect(new StdioServerTransport());
