import { describe, expect, it } from 'vitest';
import { PROGRESS_EVENT_TYPES } from './events.js';
import { progressEventJsonSchema } from './json-schema.js';

describe('progressEventJsonSchema', () => {
  it('describes every event type with its required fields', () => {
    const schema = progressEventJsonSchema() as {
      $schema: string;
      oneOf: { properties: { type: { const: string } }; required: string[] }[];
    };
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.oneOf.map((s) => s.properties.type.const)).toEqual(PROGRESS_EVENT_TYPES);
    const completed = schema.oneOf.find((s) => s.properties.type.const === 'tool.completed');
    expect(completed?.required).toEqual(['type', 'runId', 'seq', 'ts', 'toolName', 'durationMs', 'ok']);
  });
});
