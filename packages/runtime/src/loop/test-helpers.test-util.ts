import type { ProgressEvent } from '@headway/protocol';
import { z } from 'zod';
import { defineTool, type Tool } from '../tools/define-tool.js';

/** A reporter that records its calls as strings. */
export { createRecordingReporter } from '@headway/protocol/testing';

/** A sink that collects every event. */
export function collect(): { sink: (e: ProgressEvent) => void; events: ProgressEvent[]; types: () => string[] } {
  const events: ProgressEvent[] = [];
  return { sink: (e) => events.push(e), events, types: () => events.map((e) => e.type) };
}

export const fileRead: Tool = defineTool({
  name: 'file_read',
  description: 'Read a text file',
  parameters: z.object({ path: z.string() }),
  safe: true,
  execute: ({ path }) => `contents of ${path}: headway makes agent loops legible`,
});

export const search: Tool = defineTool({
  name: 'search',
  description: 'Search the code base',
  parameters: z.object({ query: z.string() }),
  execute: ({ query }) => `Found 3 matches for ${query}`,
});

/** Sequential ids: run-1, run-2, ... */
export function ids(prefix = 'id'): () => string {
  let n = 0;
  return () => `${prefix}-${++n}`;
}
