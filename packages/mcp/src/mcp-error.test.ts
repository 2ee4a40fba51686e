import { errorConstructorForms } from '@headway/protocol/testing';
import { expect, it } from 'vitest';
import { McpError } from './mcp-error.js';

it('builds the same McpError from the current and the deprecated constructor forms', () => {
  const { current, deprecated } = errorConstructorForms(McpError, 'MCP_CALL_FAILED');
  expect(deprecated).toEqual(current);
  expect(current).toMatchObject({ name: 'McpError', inspectHead: 'McpError: something failed', isInstance: true });
});

it('carries the server and the tool', () => {
  const error = new McpError('MCP_TOOL_ERROR', 'search failed', { server: 'docs', tool: 'search' });
  expect([error.server, error.tool, error.code]).toEqual(['docs', 'search', 'MCP_TOOL_ERROR']);
  expect(new McpError('MCP_CONNECT_FAILED', 'no server').server).toBeUndefined();
});
