import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from './define-tool.js';

describe('defineTool', () => {
  it('derives the JSON Schema the model sees', () => {
    const tool = defineTool({
      name: 'file_read',
      description: 'Read a file',
      parameters: z.object({ path: z.string().describe('relative path') }),
      execute: () => '',
    });
    expect(tool.jsonSchema).toEqual({
      type: 'object',
      properties: { path: { type: 'string', description: 'relative path' } },
      required: ['path'],
    });
    expect(tool.safe).toBe(false);
  });

  it('rejects a bad definition naming the field', () => {
    expect(() => defineTool({ name: 'has space', description: 'x', parameters: z.object({}), execute: () => '' })).toThrow(
      'Invalid tool definition "has space": name: must be 1–64 letters, digits, "_" or "-"',
    );
    expect(() => defineTool({ name: 'ok', description: '', parameters: {} as z.ZodType, execute: () => '' })).toThrow(
      /description: too small.*parameters: must be a zod schema/,
    );
  });
});
