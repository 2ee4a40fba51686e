import { errorOptionsSnapshot } from '@headway/protocol/testing';
import { expect, it } from 'vitest';
import { McpError } from './mcp-error.js';

it('builds a McpError with the issues and cause of its options', () => {
  const current = errorOptionsSnapshot(McpError, 'MCP_CALL_FAILED');
  expect(current).toMatchObject({
    message: 'something failed',
    issues: [{ path: 'items[0].price', message: 'expected a number >= 0' }],
    hasCause: true,
  });
  expect(current).toMatchObject({ name: 'McpError', inspectHead: 'McpError: something failed', isInstance: true });
});

it('carries the server and the tool', () => {
  const error = new McpError('MCP_TOOL_ERROR', 'search failed', { server: 'docs', tool: 'search' });
  expect([error.server, error.tool, error.code]).toEqual(['docs', 'search', 'MCP_TOOL_ERROR']);
  expect(new McpError('MCP_CONNECT_FAILED', 'no server').server).toBeUndefined();
});
